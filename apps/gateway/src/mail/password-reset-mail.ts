import type { MailMessage } from "./message.js";

/** The email with a password reset link, in words for the person who asked for it. */
export function passwordResetMail(input: {
  to: string;
  link: string;
  ttlSeconds: number;
}): Omit<MailMessage, "from"> {
  const minutes = Math.round(input.ttlSeconds / 60);
  return {
    to: input.to,
    subject: "Choose a new password for Catalog",
    text: [
      "Someone (we hope you) asked to choose a new password for your Catalog account.",
      "",
      "Open this link to choose it:",
      input.link,
      "",
      `The link works once, for ${minutes} minutes. Choosing a new password signs you out everywhere.`,
      "",
      "If you did not ask for this, ignore this email: your password stays as it is.",
      "",
    ].join("\n"),
  };
}
