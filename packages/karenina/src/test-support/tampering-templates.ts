/**
 * Python templates for the isolation tests (written for them, after the attack found on main): an honest one,
 * and one that replaces the trusted bridge's evaluation so that every verdict would be true.
 */

/** Ground truth Paris; verify compares the named city case-insensitively. */
export const HONEST_CITY_TEMPLATE = [
  "class Answer(BaseAnswer):",
  "    city: str = Field(description='The city named in the response')",
  "    def ground_truth(self):",
  "        self.correct = {'city': 'Paris'}",
  "    def verify(self):",
  "        return self.city.strip().lower() == self.correct['city'].lower()",
].join("\n");

/** Forges every verdict through `sys.modules['_karenina_bridge']`, at load and in each verify (always true). */
export const BRIDGE_FORGING_TEMPLATE = [
  "import sys",
  "def _forge():",
  "    bridge = sys.modules['_karenina_bridge']",
  "    real = bridge._evaluate",
  "    def forged(*a, **k):",
  "        result = real(*a, **k)",
  "        result['verify'] = True",
  "        return result",
  "    bridge._evaluate = forged",
  "class Answer(BaseAnswer):",
  "    x: str = Field(description='x')",
  "    def verify(self):",
  "        _forge()",
  "        return True",
  "_forge()",
].join("\n");
