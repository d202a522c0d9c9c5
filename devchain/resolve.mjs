// SPDX-License-Identifier: Apache-2.0
// Resolves ENS names on the dev chain as any viem client does: getEnsAddress and getEnsName
// through the deployment's UniversalResolver, with CCIP-read (ERC-3668) on, so account names
// under the zone are answered by the Sigil server's gateway and checked by the offchain
// resolver. Prints one JSON object.
//
// Usage: node devchain/resolve.mjs --rpc URL --universal-resolver ADDRESS
//          (--name NAME | --address ADDRESS) [--coin-type N]
import { createPublicClient, getAddress, http } from 'viem';
import { normalize } from 'viem/ens';

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (!flag?.startsWith('--') || value === undefined) throw new Error(`bad argument ${flag}`);
    args[flag.slice(2)] = value;
  }
  if (!args.rpc || !args['universal-resolver'] || !(args.name || args.address)) {
    throw new Error('usage: --rpc URL --universal-resolver ADDRESS (--name NAME | --address ADDRESS) [--coin-type N]');
  }
  return args;
}

try {
  const args = parseArgs(process.argv.slice(2));
  const client = createPublicClient({ transport: http(args.rpc, { retryCount: 0 }) });
  const universalResolverAddress = args['universal-resolver'];
  const coinType = args['coin-type'] === undefined ? undefined : BigInt(args['coin-type']);
  const out = {};
  if (args.name) {
    const address = await client.getEnsAddress({ name: normalize(args.name), coinType, universalResolverAddress, strict: true });
    out.address = address ? getAddress(address) : null;
  } else {
    out.name = await client.getEnsName({ address: args.address, coinType, universalResolverAddress });
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
} catch (err) {
  console.error(`resolve failed: ${err.shortMessage ?? err.message}\n${err.details ?? ''}`);
  process.exit(1);
}
