import { z } from "zod";

/** `?page&page_size` of every list route: pages from 1, 50 items by default, 100 at most (spec 07 §2.5). */
export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1).describe("Page number, from 1"),
  page_size: z.coerce.number().int().min(1).max(100).default(50).describe("Items per page, 1 to 100"),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** The paging fields of a list response, beside its items. */
export const PageInfoSchema = z.object({
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int().describe("Items in all pages"),
});

/** A page of `schema` items: `{items, page, page_size, total}`. */
export function pageSchema<T extends z.ZodType>(schema: T) {
  return PageInfoSchema.extend({ items: z.array(schema) });
}

/** One page of `items` (already in their list order). */
export function pageOf<T>(items: readonly T[], query: PageQuery) {
  const start = (query.page - 1) * query.page_size;
  return {
    items: items.slice(start, start + query.page_size),
    page: query.page,
    page_size: query.page_size,
    total: items.length,
  };
}
