import { ConfigError } from "@catalog/config";
import { loadRendererConfig } from "@catalog/config/renderer";

test("the renderer serves loopback port 3200 by default and needs no database or Redis", () => {
  expect(loadRendererConfig({})).toMatchObject({
    RENDERER_HOST: "127.0.0.1",
    RENDERER_PORT: 3200,
    CHROMIUM_PATH: "/usr/bin/chromium",
  });
});

test("the renderer refuses to start with credentials in its environment, naming them", () => {
  const load = () =>
    loadRendererConfig({
      RENDERER_PORT: "3200",
      DATABASE_URL: "postgresql://app:pw@db/catalog",
      REDIS_URL: "redis://redis:6379",
      SHOPIFY_CLIENT_SECRET: "x",
    });
  expect(load).toThrow(ConfigError);
  expect(load).toThrow(
    "the renderer runs merchants' pages and must hold no credentials; remove DATABASE_URL, REDIS_URL, SHOPIFY_CLIENT_SECRET from its environment",
  );
});
