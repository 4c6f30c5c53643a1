import { BlockList, isIP } from "node:net";

/** True when the address is inside one of the CIDRs (or equal to one of the plain addresses). */
export function ipInList(ip: string | null, list: readonly string[]): boolean {
  if (list.length === 0 || !ip || !isIP(ip)) return false;
  return blockListOf(list).check(ip, isIP(ip) === 6 ? "ipv6" : "ipv4");
}

/** An allowlist check: an empty list allows every address; an unknown address is never allowed otherwise. */
export function ipAllowed(ip: string | null, allowed: readonly string[]): boolean {
  return allowed.length === 0 || ipInList(ip, allowed);
}

// Checked on every request against the same (cached) settings or env array: built once per array.
const blockLists = new WeakMap<readonly string[], BlockList>();

function blockListOf(list: readonly string[]): BlockList {
  let blockList = blockLists.get(list);
  if (!blockList) {
    blockList = new BlockList();
    for (const entry of list) {
      const [address, bits] = entry.split("/") as [string, string | undefined];
      const family = isIP(address) === 6 ? "ipv6" : "ipv4";
      if (bits === undefined) blockList.addAddress(address, family);
      else blockList.addSubnet(address, Number(bits), family);
    }
    blockLists.set(list, blockList);
  }
  return blockList;
}
