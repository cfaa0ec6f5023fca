/**
 * The classes of rate-limiter-flexible the server uses, each required from its own file. The package's index
 * requires all 36 of its files (every store it supports: Mongo, MySQL, DynamoDB, etcd, Prisma, the cluster's master
 * with node:cluster...) at the first import, for 15 files used: loading the compiled start-server.js took 34 ms more
 * with it (its fastest of 40 loads, 486 ms against 451 ms, on a busy two-core machine). The package has no `exports`
 * map, so its files may be required one by one; their types are the index's.
 */
import type * as Flexible from 'rate-limiter-flexible';

export type { RateLimiterAbstract } from 'rate-limiter-flexible';

export const RateLimiterMemory =
  require('rate-limiter-flexible/lib/RateLimiterMemory') as typeof Flexible.RateLimiterMemory;
export type RateLimiterMemory = Flexible.RateLimiterMemory;
export const RateLimiterPostgres =
  require('rate-limiter-flexible/lib/RateLimiterPostgres') as typeof Flexible.RateLimiterPostgres;
export type RateLimiterPostgres = Flexible.RateLimiterPostgres;
export const RateLimiterRedis =
  require('rate-limiter-flexible/lib/RateLimiterRedis') as typeof Flexible.RateLimiterRedis;
export type RateLimiterRedis = Flexible.RateLimiterRedis;
export const RateLimiterSQLite =
  require('rate-limiter-flexible/lib/RateLimiterSQLite') as typeof Flexible.RateLimiterSQLite;
export type RateLimiterSQLite = Flexible.RateLimiterSQLite;
export const RateLimiterRes = require('rate-limiter-flexible/lib/RateLimiterRes') as typeof Flexible.RateLimiterRes;
export type RateLimiterRes = Flexible.RateLimiterRes;
export const RLWrapperTimeouts =
  require('rate-limiter-flexible/lib/RLWrapperTimeouts') as typeof Flexible.RLWrapperTimeouts;
export type RLWrapperTimeouts = Flexible.RLWrapperTimeouts;
