import { redactUrl } from "../src/index.js";

test.each([
  [
    "/api/integrations/shopify/callback?code=abc123&hmac=f00d&shop=acme.myshopify.com&state=s7&timestamp=1",
    "/api/integrations/shopify/callback?code=[redacted]&hmac=[redacted]&shop=acme.myshopify.com&state=[redacted]&timestamp=1",
  ],
  ["/api/products?q=mug&page=2", "/api/products?q=mug&page=2"],
  [
    "/cb?access_token=t&refresh%5Ftoken=r&user_id=s&flag",
    "/cb?access_token=[redacted]&refresh%5Ftoken=[redacted]&user_id=[redacted]&flag",
  ],
  ["/api/products", "/api/products"],
])("redactUrl(%s)", (url, expected) => {
  expect(redactUrl(url)).toBe(expected);
});
