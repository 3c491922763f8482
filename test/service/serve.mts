/**
 * The stand-in as a process of its own, until SIGINT or SIGTERM; it prints its URL first.
 *   vite-node test/service/serve.mts -- [--port N] [--api-key K] [--latency MS] [--errors-as status|body]
 */
import { main } from './stand-in.mts';

await main(process.argv.slice(2));
