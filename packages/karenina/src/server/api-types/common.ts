import type { z } from "zod";
import type { PageInfoSchema } from "../core/paging.js";

export type { ApiErrorBody } from "../core/api-error.js";

/** A page of a list route (`page`/`page_size`, `total`). */
export type ApiPage<T> = z.infer<typeof PageInfoSchema> & { items: T[] };
