/** Where collection reports what it drops or fails on: the server's pino logger, or a test's. */
export interface Log {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}
