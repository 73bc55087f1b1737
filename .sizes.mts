import {measureAgentBundle} from "./bench/bundle-size.ts";
const s = await measureAgentBundle();
console.log(s.minified, s.gzipped);
for (const i of s.inputs) if (/client|protocol/.test(i.path)) console.log(i.bytes, i.path);
