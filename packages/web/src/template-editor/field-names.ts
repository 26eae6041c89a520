/**
 * The rules of a field's name in the form editor (spec 07 §1.3.6): errors stop the form from applying the
 * change (the generated class would not load), warnings are advice.
 */

const PYTHON_KEYWORDS = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for from " +
    "global if import in is lambda nonlocal not or pass raise return try while with yield"
  ).split(" "),
);

// Attributes of Pydantic's BaseModel a field would shadow (Pydantic refuses most of them, and `model_` is its
// protected prefix), and those of the answer base class (`id` is the question id, `correct` the ground truth).
const PYDANTIC_RESERVED = new Set(
  (
    "construct copy dict json parse_file parse_obj parse_raw schema schema_json update_forward_refs validate " +
    "from_orm fields"
  ).split(" "),
);
const BASE_ANSWER_RESERVED = new Set(
  "id correct regex verify verify_granular verify_regex ground_truth model_post_init".split(" "),
);

const PYTHON_BUILTINS = new Set(
  (
    "abs all any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex delattr dict " +
    "dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash help hex id input " +
    "int isinstance issubclass iter len list locals map max memoryview min next object oct open ord pow print " +
    "property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip"
  ).split(" "),
);

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SNAKE_CASE = /^[a-z_][a-z0-9_]*$/;
export const LONG_NAME = 40;

export interface NameCheck {
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

/** The errors and warnings of `name` among the names of the other fields (`others`). */
export function checkFieldName(name: string, others: readonly string[]): NameCheck {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (name.trim() === "") return { errors: ["The name is empty"], warnings };
  if (/^[0-9]/.test(name)) errors.push("The name starts with a digit");
  else if (!IDENTIFIER.test(name))
    errors.push("The name is not a Python identifier (letters, digits and _ only)");
  if (PYTHON_KEYWORDS.has(name)) errors.push(`"${name}" is a Python keyword`);
  if (name.startsWith("model_") || PYDANTIC_RESERVED.has(name))
    errors.push(`"${name}" is reserved by Pydantic (names starting with model_ included)`);
  if (BASE_ANSWER_RESERVED.has(name)) errors.push(`"${name}" is reserved by the answer base class`);
  if (name.startsWith("_")) errors.push("The name starts with _ (private names are not fields)");
  if (others.includes(name)) errors.push(`Another field is named "${name}"`);
  if (errors.length > 0) return { errors, warnings };
  if (PYTHON_BUILTINS.has(name)) warnings.push(`"${name}" shadows a Python builtin`);
  if (name.includes("__")) warnings.push("The name contains a double underscore");
  if (!SNAKE_CASE.test(name)) warnings.push("The name is not snake_case");
  if (name.length > LONG_NAME) warnings.push(`The name is long (over ${LONG_NAME} characters)`);
  if (name.length === 1) warnings.push("The name is a single character");
  return { errors, warnings };
}
