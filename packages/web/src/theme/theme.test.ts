import { describe, expect, test } from "vitest";
import { rememberTheme, storedTheme, THEME_STORAGE_KEY } from "./theme.js";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (k: string, v: string) => data.set(k, v),
  };
}

describe("the remembered theme", () => {
  test("is dark by default, and when storage holds something else or refuses to be read", () => {
    expect(storedTheme(memoryStorage())).toBe("dark");
    expect(storedTheme(memoryStorage({ [THEME_STORAGE_KEY]: "purple" }))).toBe("dark");
    expect(storedTheme(undefined)).toBe("dark");
    const refusing = {
      getItem: () => {
        throw new Error("SecurityError");
      },
    };
    expect(storedTheme(refusing)).toBe("dark");
  });

  test("is what was remembered", () => {
    const storage = memoryStorage();
    rememberTheme(storage, "light");
    expect(storage.data.get(THEME_STORAGE_KEY)).toBe("light");
    expect(storedTheme(storage)).toBe("light");
  });

  test("a storage that refuses the write does not break the switch", () => {
    const full = {
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(() => rememberTheme(full, "light")).not.toThrow();
  });
});
