// Example workspace (hand-written): `node run-tests.mjs` exits 1 while median.mjs is wrong.
import { median } from "./median.mjs";

const cases = [
  [[3, 1, 2], 2],
  [[9, 10, 1], 9],
  [[4, 1, 3, 2], 2.5],
];
for (const [numbers, expected] of cases) {
  const actual = median(numbers);
  if (actual !== expected) {
    console.error(`median(${JSON.stringify(numbers)}) = ${actual}, expected ${expected}`);
    process.exit(1);
  }
}
console.log("all tests pass");
