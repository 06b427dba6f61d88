import { z } from 'zod';

/**
 * A value that is missing says so. Zod's own message for it names the types a field could have had
 * ('Invalid input', or 'Invalid input: expected string, received undefined'), which tells a merchant
 * reading `mchId: Invalid input` nothing; `mchId: required` does. A schema's own message wins over
 * this one.
 */
z.config({ customError: (issue) => (issue.input === undefined ? 'required' : undefined) });
