import { expect, test } from "vitest";
import { keptAsWrittenText } from "./kept-as-written.js";

test("the kept part reads as the code, a comment standing where the form writes the VerifiedFields", () => {
  const text = keptAsWrittenText("Answer", {
    module_head: "from pydantic import Field\n\n\n",
    class_body_head: '  """Doc."""\n',
    class_body_tail: "\n  def verify(self):\n    return True\n",
    module_tail: "",
    body_indent: "  ",
  });
  expect(text).toBe(
    'from pydantic import Field\n\n\nclass Answer(BaseAnswer):\n  """Doc."""\n  # … the VerifiedFields of the form are written here …\n\n  def verify(self):\n    return True\n',
  );
});
