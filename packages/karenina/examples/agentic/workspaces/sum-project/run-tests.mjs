// Example workspace (hand-written): `node run-tests.mjs` exits 1 while sum.mjs is wrong.
import { sum } from "./sum.mjs";

const cases = [
  [[1, 2, 3], 6],
  [[5], 5],
  [[], 0],
];
for (const [numbers, expected] of cases) {
  const actual = sum(numbers);
  if (actual !== expected) {
    console.error(`sum(${JSON.stringify(numbers)}) = ${actual}, expected ${expected}`);
    process.exit(1);
  }
}
console.log("all tests pass");
