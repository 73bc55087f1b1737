/**
 * A small built-in set of login pages for bench/agent.ts, used when the corpus
 * (`../shared/corpus/pages`) is absent, so a clone can reproduce the figures'
 * shape. They are generated, not real sites: each has site chrome (navigation,
 * footer, a news list) around one login form, in one of the layouts real login
 * pages use, with the same `data-fathom` ground truth as the corpus
 * (`username`, `password`, `next`). Figures on this set are not the corpus figures.
 */
import type { LoginPage } from "./login-server.js";

const words = ["Products", "Solutions", "Pricing", "Docs", "Blog", "Careers", "Partners", "Support", "Status", "Security", "Press", "Events"];

function chrome(site: string, body: string, links: number): string {
  const nav = Array.from({ length: links }, (_, index) => `<li><a href="/${words[index % words.length]!.toLowerCase()}/${index}">${words[index % words.length]} ${Math.floor(index / words.length) || ""}</a></li>`).join("");
  const news = Array.from({ length: Math.ceil(links / 3) }, (_, index) => `<article><h3><a href="/news/${index}">${site} update ${index + 1}: what changed this month</a></h3><p>Release notes, fixes and a short note on what comes next for ${site} customers.</p></article>`).join("");
  const footer = Array.from({ length: links }, (_, index) => `<a href="/legal/${index}">${words[(index + 5) % words.length]} policy ${index + 1}</a>`).join(" · ");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in — ${site}</title></head><body>
<header><a href="/"><img alt="${site} home" src="/logo.png"></a><nav aria-label="Main"><ul>${nav}</ul></nav><button type="button">Menu</button></header>
<main>${body}<section aria-label="News"><h2>From the ${site} blog</h2>${news}</section></main>
<footer><p>© 2026 ${site} Inc.</p><p>${footer}</p><select aria-label="Language"><option>English</option><option>Deutsch</option><option>Français</option></select></footer>
</body></html>`;
}

const layouts: ((site: string) => string)[] = [
  // Labelled fields and a submit button.
  (site) => `<h1>Sign in to ${site}</h1><form action="/session" method="post">
<label for="u">Email address</label><input id="u" name="email" type="email" data-fathom="username">
<label for="p">Password</label><input id="p" name="password" type="password" data-fathom="password">
<label><input type="checkbox" name="remember"> Keep me signed in</label>
<button type="submit" data-fathom="next">Sign in</button></form><p><a href="/forgot">Forgot password?</a> <a href="/join">Create an account</a></p>`,
  // Placeholders only, an input type=submit, social buttons first.
  (site) => `<h2>Welcome back</h2><div><button type="button">Continue with Google</button><button type="button">Continue with Apple</button></div><p>or</p>
<form action="/login" method="post"><input name="user" placeholder="Username or email" data-fathom="username">
<input name="pass" type="password" placeholder="Password" data-fathom="password">
<input type="submit" value="Log in" data-fathom="next"></form><a href="/reset">Reset your password</a>`,
  // aria-label fields, a show-password toggle between the field and the submit.
  (site) => `<h1>${site} account</h1><form action="/auth" method="post">
<input aria-label="Phone, email or username" name="id" data-fathom="username">
<input aria-label="Password" type="password" name="pw" data-fathom="password"><button type="button" aria-label="Show password">👁</button>
<button type="submit" data-fathom="next">Continue</button><button type="button">Sign up</button></form>`,
  // Text before unlabelled fields, a submit button in a table layout.
  (site) => `<form action="/cgi/login" method="post"><table>
<tr><td>Login name:</td><td><input name="login" data-fathom="username"></td></tr>
<tr><td>Password:</td><td><input type="password" name="passwd" data-fathom="password"></td></tr>
<tr><td></td><td><button type="submit" data-fathom="next">Enter</button> <a href="/help">Help</a></td></tr></table></form>`,
  // A sign-in form beside a registration form.
  (site) => `<div><section><h2>Returning customer</h2><form action="/signin" method="post">
<label>E-mail <input name="email" type="email" data-fathom="username"></label>
<label>Password <input name="password" type="password" data-fathom="password"></label>
<button type="submit" data-fathom="next">Sign in</button></form></section>
<section><h2>New to ${site}?</h2><form action="/register"><label>Name <input name="name"></label><button type="submit">Register</button></form></section></div>`,
  // A form with no button: Enter submits.
  (site) => `<h1>${site} staff portal</h1><form action="/portal" method="post">
<label>User ID <input name="uid" data-fathom="username"></label>
<label>PIN <input name="pin" type="password" data-fathom="password"></label>
<input type="submit" hidden data-fathom="next"></form><p>Press Enter to sign in.</p>`,
];

const sites = ["Acme", "Northwind", "Globex", "Initech", "Umbrella", "Hooli", "Stark", "Wayne"];

/** Built-in login pages: every layout at two sizes of site chrome. */
export function builtinLoginPages(): LoginPage[] {
  const pages: LoginPage[] = [];
  layouts.forEach((layout, index) => {
    for (const [size, links] of [["small", 6], ["large", 48]] as const) {
      const site = sites[(index * 2 + (size === "small" ? 0 : 1)) % sites.length]!;
      pages.push({ file: `builtin-${index + 1}-${size}.html`, html: chrome(site, layout(site), links) });
    }
  });
  return pages;
}
