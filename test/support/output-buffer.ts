/** Collects what an example writes (`{ write }`, the examples' output) so a test can read it back. */
export function outputBuffer(): { write: (chunk: string) => void; text: () => string } {
  let text = "";
  return {
    write: (chunk: string) => {
      text += chunk;
    },
    text: () => text,
  };
}
