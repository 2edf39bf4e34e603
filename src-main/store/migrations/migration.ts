/** One schema step. `up` runs inside the migration transaction; it never sees user data it did not create. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly up: string;
}
