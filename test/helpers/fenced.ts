/** The fenced body of an agent-tool result (all fenced blocks joined), or "" when nothing is fenced. */
export function fenced(text: string): string {
  const nonce = /<untrusted-page-content nonce="([0-9a-f]{16})">/.exec(text)?.[1];
  if (!nonce) return "";
  const blocks = text.split(`<untrusted-page-content nonce="${nonce}">\n`).slice(1);
  return blocks.map((block) => block.split(`\n</untrusted-page-content nonce="${nonce}">`)[0]).join("\n");
}
