export interface StandinOptions {
  /** Loopback only; default 127.0.0.1. */
  host?: string;
  /** 0 (default): any free port. */
  port?: number;
  /**
   * Check every API request against the channel's published contract (../shared/contracts):
   * a request that breaks it is answered 400 with the reasons and kept in `violations`.
   * Default: true where the contracts are present. Loading takes up to a second or two.
   */
  contract?: boolean;
  /** The OAuth client the stand-in accepts (defaults per channel, also given in `env`). */
  clientId?: string;
  clientSecret?: string;
  /**
   * Where the authorize page sends the browser back when the channel names a redirect by alias
   * (eBay's RuName).
   */
  callbackUrl?: string;
  /** A declared request rate per store and second (`RateGate`); absent: none. */
  rate?: number;
  /** The declared rate's clock (tests hold it still, so a slow machine cannot open a new second). */
  now?: () => number;
}
