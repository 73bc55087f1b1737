// TEMPORARY: replaced by ./aria/agent-form.ts
export function renderAgentForm(nodes: unknown, options: { mapRef: (r: string) => string; maxBytes: number; interactiveOnly: boolean; depth: number; boxes: boolean }) {
  const lines: string[] = [];
  const walk = (list: unknown[], depth: number) => {
    for (const node of list) {
      if (typeof node === "string") { if (!options.interactiveOnly) lines.push(`${" ".repeat(depth)}- text: ${node.slice(0, 80)}`); continue; }
      const n = node as { role: string; name?: string; ref?: string; children?: unknown[] };
      lines.push(`${" ".repeat(depth)}- ${n.role}${n.name ? ` "${n.name}"` : ""}${n.ref ? ` [ref=${options.mapRef(n.ref)}]` : ""}`);
      if (n.children) walk(n.children, depth + 1);
    }
  };
  walk(nodes as unknown[], 0);
  const snapshot = lines.join("\n");
  return { snapshot, truncated: false, bytes: new TextEncoder().encode(snapshot).length, refs: 0 };
}
