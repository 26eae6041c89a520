import { md5 } from "@noble/hashes/legacy.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/**
 * The MD5 hex digest of `text`'s UTF-8 bytes. Manual traces are keyed by the MD5 of the question text (spec 04
 * §1); the browser's Web Crypto has no MD5, and the template download needs it offline. Not for security.
 */
export function md5Hex(text: string): string {
  return bytesToHex(md5(utf8ToBytes(text)));
}
