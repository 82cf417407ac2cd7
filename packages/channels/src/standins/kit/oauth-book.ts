// The authorization server half of a stand-in: codes, access and refresh tokens, PKCE, denial
// and expiry on demand. Each stand-in puts its own endpoints and wire format around it.
import { createHash, randomBytes } from "node:crypto";

export interface AuthorizationRequest {
  storeId: string;
  clientId: string;
  redirectUri: string;
  state: string;
  scope?: string;
  /** PKCE (S256 only). */
  codeChallenge?: string;
}

export interface TokenSet {
  storeId: string;
  accessToken: string;
  refreshToken: string | null;
  /** Seconds. */
  expiresIn: number;
  refreshExpiresIn: number | null;
}

export type TokenResult =
  | { ok: true; tokens: TokenSet }
  | {
      ok: false;
      error: "invalid_grant" | "invalid_client" | "invalid_request";
      description: string;
    };

export interface OAuthBookOptions {
  clientId: string;
  /**
   * Access token lifetime in seconds; 0 = never expires (Shopify offline tokens, WooCommerce keys).
   */
  accessTtlSeconds: number;
  /** Refresh token lifetime in seconds; null = no refresh tokens. */
  refreshTtlSeconds: number | null;
  /** Each refresh hands out a new refresh token and retires the old one (Etsy). */
  rotateRefreshTokens?: boolean;
  /** Prefix of access tokens, e.g. the user id Etsy puts in front (`12345.`). */
  tokenPrefix?: (storeId: string) => string;
}

const CODE_TTL_MS = 5 * 60_000;
const token = () => randomBytes(24).toString("base64url");
export const pkceChallenge = (verifier: string) =>
  createHash("sha256").update(verifier).digest("base64url");

export class OAuthBook {
  private readonly codes = new Map<string, AuthorizationRequest & { expiresAt: number }>();
  private readonly access = new Map<string, { storeId: string; expiresAt: number }>();
  private readonly refreshTokens = new Map<string, { storeId: string; expiresAt: number }>();
  private denyNext = false;

  constructor(private readonly options: OAuthBookOptions) {}

  denyNextAuthorization(): void {
    this.denyNext = true;
  }

  /**
   * Where the authorize page sends the browser: back to `redirectUri` with a code, or with
   * `error=access_denied`.
   */
  authorize(request: AuthorizationRequest): string {
    const target = new URL(request.redirectUri);
    if (this.denyNext) {
      this.denyNext = false;
      target.searchParams.set("error", "access_denied");
      target.searchParams.set("error_description", "The user denied access");
    } else {
      const code = token();
      this.codes.set(code, { ...request, expiresAt: Date.now() + CODE_TTL_MS });
      target.searchParams.set("code", code);
    }
    target.searchParams.set("state", request.state);
    return target.toString();
  }

  /**
   * A code is good once, for the client and redirect URI it was issued to (and the PKCE verifier,
   * when a challenge was given).
   */
  exchangeCode(input: {
    code: string;
    clientId: string;
    redirectUri?: string;
    codeVerifier?: string;
  }): TokenResult {
    const issued = this.codes.get(input.code);
    this.codes.delete(input.code);
    if (!issued || issued.expiresAt < Date.now())
      return {
        ok: false,
        error: "invalid_grant",
        description: "the code is unknown, used or expired",
      };
    if (issued.clientId !== input.clientId)
      return {
        ok: false,
        error: "invalid_client",
        description: "the code was issued to another client",
      };
    if (input.redirectUri !== undefined && input.redirectUri !== issued.redirectUri) {
      return {
        ok: false,
        error: "invalid_grant",
        description: "redirect_uri does not match the authorization request",
      };
    }
    if (
      issued.codeChallenge &&
      (!input.codeVerifier || pkceChallenge(input.codeVerifier) !== issued.codeChallenge)
    ) {
      return {
        ok: false,
        error: "invalid_grant",
        description: "code_verifier does not match the code_challenge",
      };
    }
    return { ok: true, tokens: this.issue(issued.storeId) };
  }

  refresh(input: { refreshToken: string; clientId: string }): TokenResult {
    if (input.clientId !== this.options.clientId)
      return { ok: false, error: "invalid_client", description: "unknown client" };
    const found = this.refreshTokens.get(input.refreshToken);
    if (!found || found.expiresAt < Date.now())
      return {
        ok: false,
        error: "invalid_grant",
        description: "the refresh token is invalid or expired",
      };
    if (this.options.rotateRefreshTokens) this.refreshTokens.delete(input.refreshToken);
    const tokens = this.issue(
      found.storeId,
      this.options.rotateRefreshTokens ? undefined : input.refreshToken,
    );
    return { ok: true, tokens };
  }

  /** The store an access token acts for; null when unknown or expired. */
  storeOf(accessToken: string): string | null {
    const found = this.access.get(accessToken);
    return found && found.expiresAt > Date.now() ? found.storeId : null;
  }

  expireAccessTokens(storeId: string): void {
    for (const entry of this.access.values()) if (entry.storeId === storeId) entry.expiresAt = 0;
  }

  /**
   * Tokens granted outside the authorize flow, as a store's admin hands them out (a Shopify custom
   * app's token).
   */
  grant(storeId: string): TokenSet {
    return this.issue(storeId);
  }

  private issue(storeId: string, keepRefreshToken?: string): TokenSet {
    const { accessTtlSeconds, refreshTtlSeconds, tokenPrefix } = this.options;
    const accessToken = `${tokenPrefix?.(storeId) ?? ""}${token()}`;
    this.access.set(accessToken, {
      storeId,
      expiresAt:
        accessTtlSeconds > 0 ? Date.now() + accessTtlSeconds * 1000 : Number.MAX_SAFE_INTEGER,
    });
    let refreshToken: string | null = null;
    if (refreshTtlSeconds !== null) {
      refreshToken = keepRefreshToken ?? `${tokenPrefix?.(storeId) ?? ""}${token()}`;
      if (!keepRefreshToken)
        this.refreshTokens.set(refreshToken, {
          storeId,
          expiresAt: Date.now() + refreshTtlSeconds * 1000,
        });
    }
    return {
      storeId,
      accessToken,
      refreshToken,
      expiresIn: accessTtlSeconds,
      refreshExpiresIn: refreshTtlSeconds,
    };
  }
}
