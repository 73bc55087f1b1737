import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { classifyChallenge, challengeStates, type ChallengeSignals } from "../../src/index.js";

const article = "An ordinary article. ".repeat(300);

describe("classifyChallenge", () => {
  it.each<[string, ChallengeSignals, string, string | undefined]>([
    ["a normal page", { status: 200, title: "News", text: article }, "none", undefined],
    ["Cloudflare's mitigation header", { status: 403, headers: { "cf-mitigated": "challenge" }, title: "Just a moment..." }, "challenge", "cloudflare"],
    ["a Cloudflare interstitial by its DOM", { status: 200, title: "Just a moment...", text: "Checking your browser", markers: ["cf-challenge-form", "cf-chl-opt"] }, "challenge", "cloudflare"],
    ["an orchestrate script on a sparse page", { title: "", text: "Verifying you are human.", scriptUrls: ["https://x.test/cdn-cgi/challenge-platform/h/g/orchestrate/managed/v1?ray=1"] }, "challenge", "cloudflare"],
    ["a PerimeterX press and hold", { status: 403, title: "Access to this page has been denied", text: "Press & Hold", markers: ["px-captcha"] }, "challenge", "perimeterx"],
    ["a DataDome captcha frame", { status: 403, title: "example.test", text: "", frameUrls: ["https://geo.captcha-delivery.com/captcha/?initialCid=x"] }, "challenge", "datadome"],
    ["a DataDome ban", { status: 403, title: "example.test", text: "", frameUrls: ["https://geo.captcha-delivery.com/captcha/?t=bv&cid=x"] }, "blocked", "datadome"],
    ["AWS WAF's captcha header", { status: 405, headers: { "x-amzn-waf-action": "captcha" } }, "challenge", "aws-waf"],
    ["a Cloudflare 1020 block", { status: 403, title: "Access denied | example.test used Cloudflare", text: "Error 1020", markers: ["cf-error"] }, "blocked", "cloudflare"],
    ["an Imperva incident served as 200", { status: 200, text: "", frameUrls: ["https://x.test/_Incapsula_Resource?CWUDNSAI=23&incident_id=1"] }, "blocked", "imperva"],
    ["an Akamai denial", { status: 403, title: "Access Denied", text: "You don't have permission to access this server. Reference #18.abc" }, "blocked", "akamai"],
    ["a 429", { status: 429, text: "slow down" }, "rate_limited", undefined],
    ["a throttle page served as 200", { status: 200, title: "Too Many Requests", text: "Too Many Requests" }, "rate_limited", undefined],
    ["a 401 sign-in form", { status: 401, title: "Sign in", text: "Sign in", markers: ["password-field"] }, "login_wall", undefined],
    ["a QR code sign-in (no password field)", { status: 200, title: "Messenger", text: "Link this browser\nScan the QR code with the app on your phone to log in." }, "login_wall", undefined],
    ["a Telegram-style QR sign-in", { status: 200, title: "Telegram", text: "Log in to Telegram by QR Code\nOpen Telegram on your phone\nGo to Settings > Devices > Link Desktop Device" }, "login_wall", undefined],
  ])("%s", (_name, signals, state, vendor) => {
    const result = classifyChallenge(signals);
    expect(result.state).toBe(state);
    expect(result.vendor).toBe(vendor);
    if (state !== "none") expect(result.evidence.length).toBeGreaterThan(0);
  });

  it("does not call look-alikes challenges", () => {
    // A login page with a reCAPTCHA widget in its form: a widget, even though the page is sparse.
    const login = classifyChallenge({
      status: 200,
      title: "Log in",
      text: "Email Password Log in",
      markers: ["captcha-widget", "password-field"],
      scriptUrls: ["https://www.google.com/recaptcha/api.js"],
      frameUrls: ["https://www.google.com/recaptcha/api2/anchor?k=1"],
    });
    expect(login).toMatchObject({ state: "widget", vendor: "recaptcha" });
    // A normal page with Cloudflare's sensor script and its cookie: passive.
    const sensor = classifyChallenge({ status: 200, title: "Shop", text: article, markers: ["cf-beacon"], scriptUrls: ["https://s.test/cdn-cgi/challenge-platform/scripts/jsd/main.js"], cookies: ["__cf_bm"] });
    expect(sensor).toMatchObject({ state: "passive", vendor: "cloudflare" });
    // A site's own 403 page: blocked at most, never a challenge.
    const own = classifyChallenge({ status: 403, headers: { server: "nginx" }, title: "403 Forbidden", text: "You do not have access. Contact support." });
    expect(own.state).toBe("blocked");
    // A challenge title with no vendor marker is not a challenge.
    expect(classifyChallenge({ status: 200, title: "Just a moment...", text: "Loading" }).state).toBe("none");
    // A page that only mentions a QR code, or an article about QR sign-in, is no login wall.
    expect(classifyChallenge({ status: 200, title: "Menu", text: "Scan the QR code on your table to see the menu." }).state).toBe("none");
    expect(classifyChallenge({ status: 200, title: "Guide", text: `Scan the QR code to log in. ${article}` }).state).toBe("none");
    // A vendor marker on a long page is not a challenge.
    expect(classifyChallenge({ status: 200, title: "Docs", text: article, markers: ["cf-chl-opt"] }).state).not.toBe("challenge");
  });

  it("keeps query strings, which can carry tokens, out of the evidence", () => {
    const result = classifyChallenge({ text: "", scriptUrls: ["https://x.test/cdn-cgi/challenge-platform/h/g/orchestrate/jsch/v1?token=secret-1"] });
    expect(result.state).toBe("challenge");
    expect(JSON.stringify(result)).not.toContain("secret-1");
    // A sensor's URL too, on an ordinary page.
    const sensor = classifyChallenge({ text: "x".repeat(3000), scriptUrls: ["https://www.google.com/recaptcha/api.js?render=site-key-secret-2"] });
    expect(sensor.state).toBe("passive");
    expect(sensor.evidence.join(" ")).toContain("recaptcha/api.js");
    expect(JSON.stringify(sensor)).not.toContain("secret-2");
  });

  it("never throws and always answers a valid state", () => {
    const strings = fc.array(fc.string(), { maxLength: 5 });
    const signals = fc.record(
      {
        status: fc.oneof(fc.integer({ min: 100, max: 599 }), fc.double()),
        headers: fc.dictionary(fc.string(), fc.string()),
        title: fc.string(),
        text: fc.string(),
        textLength: fc.oneof(fc.nat(), fc.integer()),
        markers: fc.array(fc.constantFrom("cf-challenge-form", "cf-error", "px-captcha", "captcha-widget", "password-field", "cf-beacon", "x"), { maxLength: 5 }),
        frameUrls: strings,
        scriptUrls: strings,
        cookies: strings,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(signals, fc.anything()), (input) => {
        const result = classifyChallenge(input as ChallengeSignals);
        expect(challengeStates).toContain(result.state);
        expect(Array.isArray(result.evidence)).toBe(true);
      }),
    );
  });
});
