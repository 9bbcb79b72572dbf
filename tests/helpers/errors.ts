// The TuiwrightError a call throws, for unit tests that check its name, code and message.
import { expect } from "bun:test";
import { TuiwrightError } from "../../lib/protocol/errors.ts";

/** The error `run` throws; fails the test when it throws none or another kind. */
export function thrown(run: () => unknown): TuiwrightError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(TuiwrightError);
    return error as TuiwrightError;
  }
  throw new Error("expected an error");
}

/** The error `promise` rejects with; fails the test when it resolves or rejects with another kind. */
export async function failure(promise: Promise<unknown>): Promise<TuiwrightError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TuiwrightError);
    return error as TuiwrightError;
  }
  throw new Error("expected the call to fail");
}
