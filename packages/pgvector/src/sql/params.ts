/**
 * Collects the parameters of one statement and hands out their placeholders (`$1`, `$2`, …), so no value
 * is ever written into SQL text.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  /**
   * Adds a value and returns its placeholder, with a cast when given (`$3::jsonb`).
   *
   * @param value - the value sent to the server
   * @param cast - a fixed SQL type name (never user input)
   */
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    return cast === undefined ? `$${this.values.length}` : `$${this.values.length}::${cast}`;
  }
}
