import { describe, expect, it } from "vitest";
import { privateAddressReason, privateHostReason } from "../../src/protocol/private-network.js";

/** The host as the URL parser leaves it, as the engine sees it. */
const host = (url: string) => new URL(url).hostname;

describe("blockPrivateNetworks: which hosts are private", () => {
  it("catches loopback, private, link-local and unspecified targets in every spelling the URL parser accepts", () => {
    const privateUrls = [
      "http://127.0.0.1/",
      "http://0x7f.1/",
      "http://2130706433/",
      "http://0177.0.0.1/",
      "http://127.1/",
      "http://0/",
      "http://10.1.2.3/",
      "http://172.31.255.1/",
      "http://192.168.0.10/",
      "http://169.254.169.254/latest/meta-data/",
      "http://100.64.0.1/",
      "http://[::1]/",
      "http://[::]/",
      "http://[::ffff:127.0.0.1]/",
      "http://[::ffff:a9fe:a9fe]/",
      "http://[fe80::1]/",
      "http://[fd00::1]/",
      "http://localhost/",
      "http://LOCALHOST./",
      "http://app.localhost/",
      // U+217C SMALL ROMAN NUMERAL FIFTY: IDNA maps it to "l".
      "http://\u217Cocalhost/",
    ];
    expect(privateUrls.filter((url) => privateHostReason(host(url)) === undefined)).toEqual([]);
  });

  it("leaves public addresses and names to the resolver", () => {
    for (const url of ["http://93.184.215.14/", "http://172.32.0.1/", "http://100.128.0.1/", "http://[2606:4700::1111]/", "http://example.com/", "http://localhost.example.com/"]) {
      expect(privateHostReason(host(url)), url).toBeUndefined();
    }
  });

  it("classifies resolver answers, IPv4 and IPv6", () => {
    expect(privateAddressReason("127.0.0.53")).toBe("a loopback address");
    expect(privateAddressReason("::ffff:10.0.0.1")).toMatch(/private.*IPv4-mapped/);
    expect(privateAddressReason("fe80::1%eth0")).toBe("a link-local address");
    expect(privateAddressReason("8.8.8.8")).toBeUndefined();
    expect(privateAddressReason("2001:4860:4860::8888")).toBeUndefined();
    expect(privateAddressReason("not an address")).toBeUndefined();
  });
});
