/** The fenced body of an agent-tool result (all fenced blocks joined), or "" when nothing is fenced. */
export function fenced(text: string): string {
  const nonce = /<untrusted-page-content nonce="([0-9a-f]{16})">/.exec(text)?.[1];
  if (!nonce) return "";
  const blocks = text.split(`<untrusted-page-content nonce="${nonce}">\n`).slice(1);
  return blocks.map((block) => block.split(`\n</untrusted-page-content nonce="${nonce}">`)[0]).join("\n");
}

const openMarker = /<untrusted-page-content nonce="([0-9a-f]{16})">/;

/**
 * What is wrong with the fencing of an agent-tool result, as sentences (none
 * when it is sound): each block of the result's nonce opens on a line of its
 * own and is closed exactly once by the same nonce before the next opens;
 * `outside` (text of the page, e.g. a canary every injected string carries)
 * appears nowhere outside the blocks, and neither does any marker-like text.
 */
export function fenceProblems(text: string, outside: string): string[] {
  const problems: string[] = [];
  const nonce = openMarker.exec(text)?.[1];
  const rest: string[] = [];
  if (nonce === undefined) rest.push(text);
  else {
    const open = `<untrusted-page-content nonce="${nonce}">`;
    const close = `</untrusted-page-content nonce="${nonce}">`;
    let at = 0;
    for (;;) {
      const start = text.indexOf(open, at);
      if (start === -1) {
        rest.push(text.slice(at));
        break;
      }
      rest.push(text.slice(at, start));
      if (start !== 0 && text[start - 1] !== "\n") problems.push(`an opening marker at ${start} is not at the start of a line`);
      const end = text.indexOf(close, start);
      if (end === -1) {
        problems.push(`the block opened at ${start} is never closed`);
        break;
      }
      const body = text.slice(start + open.length, end);
      if (body.includes(open)) problems.push(`the block opened at ${start} holds another opening marker`);
      at = end + close.length;
      if (at < text.length && text[at] !== "\n") problems.push(`the closing marker at ${end} is not at the end of a line`);
    }
  }
  const outsideText = rest.join("");
  if (outsideText.includes(outside)) problems.push(`page text outside the fence: ${JSON.stringify(outsideText.slice(Math.max(0, outsideText.indexOf(outside) - 80), outsideText.indexOf(outside) + 120))}`);
  if (outsideText.includes("untrusted-page-content")) problems.push(`a marker outside the fence's blocks: ${JSON.stringify(outsideText)}`);
  return problems;
}
