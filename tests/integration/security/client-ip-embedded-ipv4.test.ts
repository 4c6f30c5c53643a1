// The end client's IP address (lib/anti-fraud/client-data.ts): an IPv6 address that carries an IPv4 one
// (IPv4-compatible, IPv4-mapped, IPv4-translated, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged by the
// IPv4 address inside, so loopback and private addresses do not get through written as IPv6.
import { describe, expect, test } from "vitest";
import { clientIpProblem } from "@/lib/anti-fraud/client-data";

describe("an IPv4 address written inside an IPv6 one is judged as that IPv4 address", () => {
  test.each([
    ["::127.0.0.1", "loopback"],
    ["::7f00:1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:0:127.0.0.1", "loopback"],
    ["::ffff:0:7f00:1", "loopback"],
    ["0:0:0:0:ffff:0:7f00:1", "loopback"],
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["2002:7f00:1::", "loopback"],
    ["2002:7f00:0001:0:0:0:0:1", "loopback"],
    ["::10.0.0.1", "privateNetwork"],
    ["::ffff:0:192.168.1.10", "privateNetwork"],
    ["64:ff9b::a00:1", "privateNetwork"],
    ["2002:c0a8:10a::1", "privateNetwork"],
    ["2002:ac10:1::", "privateNetwork"],
    ["64:ff9b::6440:1", "carrierNat"],
    ["2002:a9fe:1::", "linkLocal"],
    ["::ffff:0:0.0.0.0", "unspecified"],
    ["64:ff9b::", "unspecified"],
    ["2002::", "unspecified"],
    ["64:ff9b::ffff:ffff", "multicastOrReserved"],
    ["2002:e000:1::", "multicastOrReserved"],
    ["64:ff9b::cb00:7101", "documentation"],
    ["2002:c633:6401::", "documentation"],
  ])("%s is refused as %s", (ip, reason) => {
    expect(clientIpProblem(ip)).toEqual({
      message: `validation.clientData.clientIp.${reason}`,
      params: { ip },
    });
  });

  test.each([
    ["::ffff:85.143.12.7"],
    ["::ffff:0:85.143.12.7"],
    ["64:ff9b::5.255.255.70"],
    ["64:ff9b::558f:c07"],
    ["2002:558f:c07::1"],
    ["2a02:6b8::2:242"],
  ])("%s carries a public address and is accepted", (ip) => {
    expect(clientIpProblem(ip)).toBeNull();
  });

  test("the IPv6 loopback and unspecified addresses keep their own reason", () => {
    expect(clientIpProblem("::1")?.message).toBe("validation.clientData.clientIp.loopback");
    expect(clientIpProblem("::")?.message).toBe("validation.clientData.clientIp.unspecified");
  });
});
