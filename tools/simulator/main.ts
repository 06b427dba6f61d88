import { helpText, resolveOptions, UsageError } from './options.js';
import { startSimulator } from './simulator.js';

/** `npm run simulate -- [options]`: traffic against a running server until --duration or Ctrl-C. */
async function main() {
  const options = resolveOptions(process.argv.slice(2));
  if (options === 'help') {
    console.log(helpText());
    return;
  }
  const simulator = await startSimulator(options, (line) => console.log(line));
  let interrupted = false;
  process.on('SIGINT', () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.log('\nstopping (Ctrl-C again to quit at once)');
    void simulator.stop();
  });
  process.on('SIGTERM', () => void simulator.stop());
  const stats = await simulator.done;
  console.log(
    `Done: ${stats.created} orders created, ${stats.payersPaid} paid by payers, ${stats.confirmed} confirmed, ` +
      `${stats.ordersNotified} merchant notifications acknowledged after ${stats.callbacksReceived} callbacks received.`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`simulate: ${error.message}`);
    process.exit(2);
  }
  console.error(`simulate: ${(error as Error).message}`);
  process.exit(1);
});
