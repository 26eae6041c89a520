import { z } from "zod";
import { DEFAULT_CONNECTION } from "./connections.js";

/** A connection name: letters, digits, `_` and `-`, 1 to 64 characters. */
export const ConnectionNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "expected 1 to 64 letters, digits, '_' or '-'");

/** `?db=<connection>` of every database route: which named connection (default: the server's database). */
export const DbQuerySchema = z.object({
  db: ConnectionNameSchema.default(DEFAULT_CONNECTION).describe(
    "The named database connection (see /api/v2/databases/connections); default the server's own",
  ),
});
