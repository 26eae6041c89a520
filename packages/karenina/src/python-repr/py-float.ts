/**
 * A Python float whose value is integral (`5.0`, `1e16`), which a JS number cannot tell from the int `5`.
 * It serializes to JSON as the plain number.
 * @example
 * pyRepr(new PyFloat(5)); // "5.0"
 * JSON.stringify({ x: new PyFloat(5) }); // '{"x":5}'
 */
export class PyFloat {
  constructor(readonly value: number) {}

  toJSON(): number {
    return this.value;
  }
}
