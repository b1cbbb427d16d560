/**
 * The Redis journal's multi-key steps as Lua scripts, so each is atomic: another gateway process
 * never sees a job hash without its stream entry, or a delivered job still in the stream.
 * Keys per job: `<prefix>:job:<id>` (a hash: job JSON, attempts, state, lastError, entry),
 * `<prefix>:seen:<id>` (the dedupe marker, with a TTL); shared: `<prefix>:stream` and `<prefix>:dead`.
 */

/** KEYS: seen, job, stream. ARGV: job id, job JSON, dedupe TTL ms. 1 added, 0 known already. */
export const ADD_SCRIPT = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[3]) then return 0 end
local entry = redis.call('XADD', KEYS[3], '*', 'id', ARGV[1])
redis.call('HSET', KEYS[2], 'job', ARGV[2], 'attempts', 0, 'state', 'pending', 'entry', entry)
return 1`;

/** KEYS: job. ARGV: attempts, error. Only while the job exists (another process may have delivered it). */
export const ATTEMPTED_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'attempts', ARGV[1], 'lastError', ARGV[2])
return 1`;

/** KEYS: job, stream. ARGV: group. The entry acknowledged and removed, the job forgotten (its seen marker stays). */
export const DONE_SCRIPT = `
local entry = redis.call('HGET', KEYS[1], 'entry')
if entry then
  redis.call('XACK', KEYS[2], ARGV[1], entry)
  redis.call('XDEL', KEYS[2], entry)
end
redis.call('DEL', KEYS[1])
return 1`;

/** KEYS: job, stream, dead. ARGV: group, job id, error. Out of the stream, into the dead set. */
export const DEAD_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local entry = redis.call('HGET', KEYS[1], 'entry')
if entry then
  redis.call('XACK', KEYS[2], ARGV[1], entry)
  redis.call('XDEL', KEYS[2], entry)
end
redis.call('HSET', KEYS[1], 'state', 'dead', 'lastError', ARGV[3])
redis.call('HDEL', KEYS[1], 'entry')
redis.call('SADD', KEYS[3], ARGV[2])
return 1`;

/** KEYS: job, stream, dead. ARGV: job id. A dead job pending again with 0 attempts, as a new stream entry. */
export const REVIVE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'state') ~= 'dead' then return 0 end
redis.call('SREM', KEYS[3], ARGV[1])
local entry = redis.call('XADD', KEYS[2], '*', 'id', ARGV[1])
redis.call('HSET', KEYS[1], 'state', 'pending', 'attempts', 0, 'entry', entry)
return 1`;

/**
 * KEYS: stream. ARGV: group, consumer, entry ids. Resets the idle time of the entries this
 * consumer still owns (so no other process claims a job merely waiting in a queue or a backoff)
 * and returns those it no longer owns. Unlike a bare XCLAIM, it never takes an entry back from
 * a process that claimed it meanwhile.
 */
export const HEARTBEAT_SCRIPT = `
local lost = {}
for i = 3, #ARGV do
  local p = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[i], ARGV[i], 1)
  if p[1] and p[1][2] == ARGV[2] then
    redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[i], 'JUSTID')
  else
    table.insert(lost, ARGV[i])
  end
end
return lost`;
