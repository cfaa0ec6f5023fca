import { configure } from '@testing-library/react';

/**
 * The host project's `findBy…` and `waitFor` wait up to 10 s for what they look for, not Testing Library's 1 s.
 *
 * They return as soon as it is there, so a quick machine loses nothing; 1 s measured the machine: with two CPU-bound
 * processes beside the suite, a page's first heading came later than that (the placements page's "Operators only",
 * issue 53). Below the test's own 30 s (testing/unit-test-timeout.ts), so a wait that fails says what it waited for.
 */
configure({ asyncUtilTimeout: 10_000 });
