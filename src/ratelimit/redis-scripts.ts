/**
 * The Lua run by Redis for the shared buckets. One script per operation, so each is one round trip
 * and atomic: no other client's take can slip between reading and writing a group of buckets.
 *
 * The clock is the Redis server's (`TIME`), not the calling host's, so gateway hosts whose clocks
 * disagree still share one timeline. ARGV[2] may carry a fixed "now" in ms instead; only tests use
 * it, to compare this arithmetic with takeToken's step by step.
 *
 * A bucket is a hash: `tokens` and `updated` (ms) as takeToken's BucketState, `paused` (ms) when an
 * upstream 429 holds it shut. Each key expires once its bucket would be full again.
 */

const PRELUDE = `
if redis.replicate_commands then redis.replicate_commands() end
local now
if ARGV[2] ~= '' then
  now = tonumber(ARGV[2])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
end
local function num(x) return string.format('%.17g', x) end
local function expire_after(key, rate, burst, tokens, paused)
  local ttl = math.ceil((burst - tokens) * 1000 / rate)
  if paused and paused - now > ttl then ttl = math.ceil(paused - now) end
  redis.call('PEXPIRE', key, ttl + 1000)
end
-- Bucket i of the group: its rate and burst (ARGV[1+2i], ARGV[2+2i]), what it stores, and its
-- tokens refilled to now (a bucket never used is full).
local function read_bucket(i)
  local rate = tonumber(ARGV[1 + 2 * i])
  local burst = tonumber(ARGV[2 + 2 * i])
  local h = redis.call('HMGET', KEYS[i], 'tokens', 'updated', 'paused')
  local tokens, updated, paused = tonumber(h[1]), tonumber(h[2]), tonumber(h[3])
  local refilled = burst
  if tokens and updated then
    refilled = math.min(burst, tokens + math.max(0, now - updated) * rate / 1000)
  end
  return rate, burst, tokens, updated, paused, refilled
end
-- Takes \`amount\` from every bucket read (0: writes nothing) and answers { head, then per bucket:
-- tokens after (string), retry after ms }.
local function spend(head, amount, refilled, retry, rates, bursts, paused)
  local out = { head }
  for i = 1, #KEYS do
    local tokens = refilled[i]
    if amount > 0 then
      tokens = tokens - amount
      redis.call('HSET', KEYS[i], 'tokens', num(tokens), 'updated', num(now))
      expire_after(KEYS[i], rates[i], bursts[i], tokens, paused[i])
    end
    out[#out + 1] = num(tokens)
    out[#out + 1] = retry[i]
  end
  return out
end
`;

/**
 * KEYS: the buckets. ARGV[1]: cost; ARGV[2]: now or ''; then for bucket i, ARGV[1+2i] its rate
 * per second and ARGV[2+2i] its burst. Returns { allowed (1|0), then per bucket: tokens (string),
 * retry after ms }. Takes from every bucket or none; writes nothing when refusing, which is the
 * same as takeToken writing the refilled state (refill is a pure function of time).
 */
export const TAKE_SCRIPT = `${PRELUDE}
local cost = tonumber(ARGV[1])
local n = #KEYS
local refilled, retry, paused, rates, bursts = {}, {}, {}, {}, {}
local allowed = 1
for i = 1, n do
  local rate, burst, _, _, p, r = read_bucket(i)
  rates[i], bursts[i], paused[i], refilled[i] = rate, burst, p, r
  local wait = 0
  if r < cost then wait = math.ceil((cost - r) * 1000 / rate) end
  if paused[i] and paused[i] > now then wait = math.max(wait, math.ceil(paused[i] - now)) end
  retry[i] = wait
  if wait > 0 then allowed = 0 end
end
return spend(allowed, allowed == 1 and cost or 0, refilled, retry, rates, bursts, paused)
`;

/**
 * KEYS: the buckets. ARGV[1]: pause duration in ms; ARGV[2]: now or ''; then per bucket rate and
 * burst as for TAKE_SCRIPT. Extends (never shortens) each bucket's pause.
 */
export const PAUSE_SCRIPT = `${PRELUDE}
local untilMs = now + tonumber(ARGV[1])
for i = 1, #KEYS do
  local rate, burst, tokens, updated, paused = read_bucket(i)
  if not paused or paused < untilMs then paused = untilMs end
  if not tokens or not updated then tokens, updated = burst, now end
  redis.call('HSET', KEYS[i], 'tokens', num(tokens), 'updated', num(updated), 'paused', num(paused))
  expire_after(KEYS[i], rate, burst, tokens, paused)
end
return 1
`;

/**
 * A lease: up to `want` tokens at once from every bucket of a group, so a process can then admit
 * that many requests without asking again (lease-store.ts).
 *
 * KEYS: the buckets. ARGV[1]: want; ARGV[2]: now or ''; then rate and burst per bucket as for
 * TAKE_SCRIPT; last, ARGV[3 + 2n]: the least worth granting (the cost of the request waiting
 * for it). Grants g = min(want, whole tokens of the emptiest bucket), taken from every bucket,
 * when g ≥ that least and no bucket is paused; else grants 0 and writes nothing.
 * Returns { g, then per bucket: tokens after (string), retry after ms for the least }.
 */
export const LEASE_SCRIPT = `${PRELUDE}
local want = tonumber(ARGV[1])
local n = #KEYS
local least = tonumber(ARGV[3 + 2 * n])
local refilled, retry, paused, rates, bursts = {}, {}, {}, {}, {}
local grant = want
local blocked = false
for i = 1, n do
  local rate, burst, _, _, p, r = read_bucket(i)
  rates[i], bursts[i], paused[i], refilled[i] = rate, burst, p, r
  grant = math.min(grant, math.floor(r))
  local wait = 0
  if r < least then wait = math.ceil((least - r) * 1000 / rate) end
  if paused[i] and paused[i] > now then wait = math.max(wait, math.ceil(paused[i] - now)); blocked = true end
  retry[i] = wait
end
if blocked or grant < least or grant <= 0 then grant = 0 end
return spend(grant, grant, refilled, retry, rates, bursts, paused)
`;

/**
 * The unused part of a lease, given back: KEYS and ARGV as for TAKE_SCRIPT, ARGV[1] the tokens.
 * Each bucket gets them back on top of its refill, never past its burst (a bucket never holds
 * more than an unleased one would), so giving back can only lower what was admitted overall.
 */
export const GIVE_BACK_SCRIPT = `${PRELUDE}
local back = tonumber(ARGV[1])
for i = 1, #KEYS do
  local rate, burst, tokens, updated, paused, refilled = read_bucket(i)
  -- A bucket never used (or expired) is full: nothing to give back to.
  if tokens and updated then
    tokens = math.min(burst, refilled + back)
    redis.call('HSET', KEYS[i], 'tokens', num(tokens), 'updated', num(now))
    expire_after(KEYS[i], rate, burst, tokens, paused)
  end
end
return 1
`;
