// The TOTP secret at rest: AES-256-GCM under a key derived (HKDF) from ENCRYPTION_KEY or AUTH_SECRET,
// bound to the user's id. A round trip gives the secret back; anything altered, another user's row or
// another key gives nothing (null), never a different secret.
import { describe, expect, test } from "vitest";
import { decryptWith, deriveKey, encryptWith } from "@/lib/auth/two-factor/secret-crypto";

const key = deriveKey("k".repeat(32));
const user = "6b1f3c1e-8d7e-4a38-9f0c-2f4b9d6a1e55";
const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

/** The stored value with one base64url character of one part changed. */
function alter(stored: string, part: number): string {
  const parts = stored.split(".");
  const p = parts[part]!;
  parts[part] = `${p[0] === "A" ? "B" : "A"}${p.slice(1)}`;
  return parts.join(".");
}

describe("secret encryption", () => {
  test("round trip", () => {
    const stored = encryptWith(key, secret, user);
    expect(decryptWith(key, stored, user)).toBe(secret);
  });

  test("the stored value does not contain the secret, and each encryption differs (random IV)", () => {
    const a = encryptWith(key, secret, user);
    const b = encryptWith(key, secret, user);
    expect(a).toMatch(/^v1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
    expect(a).not.toContain(secret);
    expect(a).not.toBe(b);
  });

  test.each([
    [1, "the IV"],
    [2, "the ciphertext"],
    [3, "the tag"],
  ])("tampering with part %i (%s) is refused", (part) => {
    const stored = encryptWith(key, secret, user);
    expect(decryptWith(key, alter(stored, part), user)).toBeNull();
  });

  test("a shortened tag is refused (no forgery with a few tag bytes)", () => {
    const [v, iv, ct, tag] = encryptWith(key, secret, user).split(".");
    const short = Buffer.from(tag!, "base64url").subarray(0, 4).toString("base64url");
    expect(decryptWith(key, [v, iv, ct, short].join("."), user)).toBeNull();
  });

  test("copied onto another user's row it does not decrypt", () => {
    const stored = encryptWith(key, secret, user);
    expect(decryptWith(key, stored, "00000000-0000-4000-8000-000000000000")).toBeNull();
  });

  test("under another key (AUTH_SECRET rotated without ENCRYPTION_KEY) it does not decrypt", () => {
    const stored = encryptWith(key, secret, user);
    expect(decryptWith(deriveKey("another secret of 32 characters!"), stored, user)).toBeNull();
  });

  test.each(["", "v1", "v2.a.b.c", "v1.a.b", "v1.a.b.c.d", "plain JBSWY3DP"])(
    "malformed %j is refused",
    (stored) => {
      expect(decryptWith(key, stored, user)).toBeNull();
    },
  );

  test("the key is 32 bytes and depends on the material", () => {
    expect(deriveKey("a".repeat(32))).toHaveLength(32);
    expect(deriveKey("a".repeat(32)).equals(deriveKey("b".repeat(32)))).toBe(false);
  });

  // Written by this release: a change of the key derivation (salt, info), the bound data or the layout
  // would leave every enrolled user unable to sign in after an upgrade.
  test("values stored by this release still decrypt, and the key derivation is fixed", () => {
    expect(key.toString("hex")).toBe("f1fb071ffcc3de8f4ee4a41f437d1cdc43b480f47961ae72fb1c03cfb81c60c4");
    expect(
      decryptWith(
        key,
        "v1.UwqTpzmbcVvHu6OQ.vETTas6zqPsOClmkBJUe_HNWwkFJZyNFrGGah4EGOKw.g-VEpkiww7BNQUoPQAcWBg",
        user,
      ),
    ).toBe(secret);
    expect(
      decryptWith(key, "v1.XIhu9lgm2Z2ZcSNg.WhVBVBUiHdtD4RgW.R_lBmJ7O9UPsmcU6sRjSyA", "пользователь-1"),
    ).toBe("секрет");
  });

  test.each([
    ["a fifth part after a valid value", (v: string) => `${v}.extra`],
    ["an empty fifth part", (v: string) => `${v}.`],
    ["another version", (v: string) => v.replace(/^v1\./, "v2.")],
    ["no IV", (v: string) => v.replace(/^v1\.[\w-]+\./, "v1..")],
    ["no tag", (v: string) => v.replace(/\.[\w-]+$/, ".")],
  ])("a valid value with %s is refused", (_what, change) => {
    const stored = encryptWith(key, secret, user);
    expect(decryptWith(key, stored, user)).toBe(secret);
    expect(decryptWith(key, change(stored), user)).toBeNull();
  });
});
