/**
 * A small built-in set of article pages for bench/observe.ts, used with the
 * built-in login pages when the corpus (`../shared/corpus/pages`) is absent.
 * Generated, not real sites: a long article (headings, paragraphs, a figure,
 * a list, a table, a quote) inside site chrome (navigation, related links,
 * comments form, footer). Figures on this set are not the corpus figures.
 */
import type { CorpusPage } from "./corpus.js";

const topics = ["river restoration", "home batteries", "urban beekeeping", "night trains", "open-source maps", "soil carbon"];

function paragraph(topic: string, index: number): string {
  return `<p>Part ${index + 1} on ${topic}: the people who work on it every day describe slow, careful progress. ` +
    `Budgets are small, measurements take years, and each season brings a new question about what worked and why. ` +
    `Still, the numbers from the last survey show a steady change, and the local groups say the next phase will build on it.</p>`;
}

function article(topic: string, sections: number, links: number): string {
  const nav = Array.from({ length: links }, (_, index) => `<li><a href="/section/${index}">Section ${index + 1}</a></li>`).join("");
  const body = Array.from({ length: sections }, (_, section) =>
    `<h2>${topic[0]!.toUpperCase()}${topic.slice(1)}, chapter ${section + 1}</h2>${[0, 1, 2].map((index) => paragraph(topic, section * 3 + index)).join("")}` +
    (section % 2 ? `<ul>${[1, 2, 3, 4].map((item) => `<li>Finding ${item} of chapter ${section + 1}</li>`).join("")}</ul>` : `<blockquote>“We measure twice and dig once,” said a volunteer.</blockquote>`),
  ).join("");
  const related = Array.from({ length: Math.ceil(links / 2) }, (_, index) => `<li><a href="/story/${index}">More on ${topics[index % topics.length]}: part ${index + 1}</a></li>`).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${topic} — The Daily Example</title></head><body>
<header><a href="/"><img alt="The Daily Example" src="/logo.png"></a><nav aria-label="Sections"><ul>${nav}</ul></nav><form role="search"><input type="search" aria-label="Search"><button>Search</button></form></header>
<main><article><h1>What we learned about ${topic}</h1><p>By A. Writer · 12 min read</p>
<figure><img alt="A photo about ${topic}" src="/photo.jpg"><figcaption>The site in early spring.</figcaption></figure>
${body}<table><caption>Survey results</caption><tr><th>Year</th><th>Sites</th></tr><tr><td>2024</td><td>12</td></tr><tr><td>2025</td><td>19</td></tr></table></article>
<aside><h2>Related</h2><ul>${related}</ul></aside>
<section aria-label="Comments"><h2>Comments</h2><form><label>Name <input name="name"></label><label>Comment <textarea name="comment"></textarea></label><button type="submit">Post comment</button></form></section></main>
<footer><p>© 2026 The Daily Example</p><a href="/privacy">Privacy</a> · <a href="/terms">Terms</a></footer></body></html>`;
}

/** Built-in article pages: each topic at a short and a long length. */
export function builtinArticlePages(): CorpusPage[] {
  return topics.flatMap((topic, index) =>
    index % 2
      ? [{ file: `builtin-article-${index + 1}-long.html`, kind: "article", html: article(topic, 8, 40) }]
      : [{ file: `builtin-article-${index + 1}-short.html`, kind: "article", html: article(topic, 3, 12) }],
  );
}
