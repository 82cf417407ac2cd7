import { ServiceError, invalid } from "@catalog/db";
import { RETIRED_CURRENCIES, encodingName } from "@catalog/extract/upload-checks";

/**
 * The text part "currency" of a document upload (POST /api/import/document, POST /api/imports):
 * a three-letter ISO-4217 code, upper-cased; undefined when left out or empty. A retired code
 * (HRK, BGN: ICU still lists them) is refused: prices in it cannot be stored as another currency.
 */
export function documentCurrencyPart(value: string | undefined): string | undefined {
  const code = value?.trim().toUpperCase();
  if (!code) return undefined;
  if (Object.hasOwn(RETIRED_CURRENCIES, code)) {
    throw invalid(
      `multipart part "currency": ${code} is no longer a current currency (withdrawn ${RETIRED_CURRENCIES[code]}); name the one the prices are in, such as EUR`,
    );
  }
  if (!/^[A-Z]{3}$/.test(code))
    throw invalid('multipart part "currency" must be an ISO-4217 code such as EUR');
  return code;
}

/**
 * The text part "encoding" of a document upload: a CSV/TSV file's text encoding, in the name
 * the parser uses ("cp1251" is "windows-1251"); undefined when left out or empty, and then it is
 * detected. A name no decoder knows is a 400.
 */
export function documentEncodingPart(value: string | undefined): string | undefined {
  const given = value?.trim();
  if (!given) return undefined;
  const name = encodingName(given);
  if (!name) {
    throw new ServiceError(
      400,
      `multipart part "encoding": "${given.slice(0, 40)}" is not a known text encoding; name one such as utf-8, ` +
        "windows-1252, windows-1251, windows-1250, iso-8859-2, shift_jis, gb18030 or euc-kr, or leave the part out to have it detected",
    );
  }
  return name;
}
