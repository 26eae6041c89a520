import { expect, test } from "vitest";
import { contentTypeOf } from "./content-types.js";

test("built assets get their content type by extension; unknown ones are bytes, never sniffed", () => {
  expect(contentTypeOf("assets/web-app-abc.md")).toBe("text/markdown; charset=utf-8");
  expect(contentTypeOf("assets/INDEX-1.JS")).toBe("text/javascript; charset=utf-8");
  expect(contentTypeOf("assets/shot.png")).toBe("image/png");
  expect(contentTypeOf("assets/data.bin")).toBe("application/octet-stream");
});
