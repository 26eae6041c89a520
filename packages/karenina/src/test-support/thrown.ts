/** The error `run` throws, checked to be of the given class (a test fails when nothing or something else is thrown). */
export function thrown<E extends Error>(
  errorClass: abstract new (...args: never[]) => E,
  run: () => unknown,
): E {
  try {
    run();
  } catch (error) {
    if (error instanceof errorClass) return error;
    throw error;
  }
  throw new Error(`expected a ${errorClass.name} to be thrown`);
}
