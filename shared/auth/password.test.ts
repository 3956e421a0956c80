import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { dummyPasswordHash, hashPassword, passwordHashNeedsUpgrade, scryptMaxmem, verifyPassword } from "./password.js";

describe("password hashing", () => {
  it("defaults to OWASP's scrypt cost N=2^17 in production configuration", () => {
    expect(loadConfig({}).PASSWORD_HASH_LOG2_N).toBe(17);
    expect(loadConfig({ PASSWORD_HASH_LOG2_N: "10" }).PASSWORD_HASH_LOG2_N).toBe(10);
    expect(() => loadConfig({ PASSWORD_HASH_LOG2_N: "21" })).toThrow();
  });

  it("hashes at N=2^17 with r=8, p=1 named in the hash, within scrypt's memory limit", async () => {
    // Act
    const hash = await hashPassword("correct horse", 17);
    // Assess
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("correct horsf", hash)).toBe(false);
    expect(scryptMaxmem(2 ** 17)).toBe(129 * 1024 * 1024);
  });

  it("verifies a hash with the parameters it names, whatever the configured cost", async () => {
    const old = await hashPassword("pw", 15);
    expect(old.startsWith("scrypt$32768$8$1$")).toBe(true);
    expect(await verifyPassword("pw", old)).toBe(true);
  });

  it("upgrades only hashes weaker than the configured cost", () => {
    const at = (n: number, r = 8, p = 1) => `scrypt$${n}$${r}$${p}$${"A".repeat(22)}==$${"A".repeat(43)}=`;
    expect(passwordHashNeedsUpgrade(at(2 ** 15), 17)).toBe(true);
    expect(passwordHashNeedsUpgrade(at(2 ** 17, 4), 17)).toBe(true);
    expect(passwordHashNeedsUpgrade(at(2 ** 17), 17)).toBe(false);
    expect(passwordHashNeedsUpgrade(at(2 ** 18), 17)).toBe(false);
    expect(passwordHashNeedsUpgrade("garbage", 17)).toBe(false);
    expect(dummyPasswordHash(17)).toBe(at(2 ** 17));
  });

  it("refuses malformed hashes and costs over 2^20 without hashing", async () => {
    for (const bad of ["", "scrypt$1000$8$1$AA==$AA==", `scrypt$${2 ** 30}$8$1$AA==$AA==`, "bcrypt$x", "scrypt$1024$8$1$AA==$AA==$x"]) {
      expect(await verifyPassword("pw", bad)).toBe(false);
    }
  });
});
