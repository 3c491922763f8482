/**
 * The stand-in as a process of its own, until SIGINT or SIGTERM; it prints its URL first.
 *   vite-node test/service/serve.mts -- [--port N] [--api-key K] [--latency MS] [--errors-as status|body]
 *     [--until-stdin-ends]
 * With --until-stdin-ends it also stops when its standard input ends: a process that starts it
 * with a pipe there ends it by ending, even when it is killed or runs out of memory.
 */
import { main } from './stand-in.mts';

const UNTIL_STDIN_ENDS = '--until-stdin-ends';
const argv = process.argv.slice(2);
const standIn = await main(argv.filter((argument) => argument !== UNTIL_STDIN_ENDS));
if (argv.includes(UNTIL_STDIN_ENDS)) {
	process.stdin.once('end', () => void standIn.close());
	// Read, but not kept alive for it: after SIGTERM the process ends as without the option.
	(process.stdin as typeof process.stdin & { unref(): void }).resume().unref();
}
