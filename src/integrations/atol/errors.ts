/**
 * A receipt the register would refuse, caught before it is sent: the message is for the hotel's staff (Russian), the
 * path names the part of the receipt at fault (`lines[2].unitPrice`), for the caller's validation answer.
 */
export class AtolTaskError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'AtolTaskError';
  }
}
