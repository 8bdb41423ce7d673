import { describe, expect, it } from 'vitest';
import { prometheusText, recordRequest } from '@/lib/observability/metrics';
import { sample } from './support';

/*
 * The request latency histogram (an OpenTelemetry SDK histogram with the service's buckets)
 * as Prometheus reads it: cumulative buckets with inclusive upper bounds, its count and its sum.
 */
describe('the request latency histogram', () => {
  it('counts each request in the first bucket whose bound it does not exceed, cumulatively, with its count and sum', async () => {
    const labels = { route: '/test/histogram', method: 'GET', status: '200' };
    for (const seconds of [0.0004, 0.001, 0.003, 0.2, 30]) recordRequest(labels.route, labels.method, 200, seconds);
    const text = await prometheusText();
    const bucket = (le: string) => sample(text, 'http_server_request_duration_seconds_bucket', { ...labels, le });
    expect(bucket('0.001')).toBe(2); // 0.001 itself is in the bucket it bounds
    expect(bucket('0.0025')).toBe(2);
    expect(bucket('0.005')).toBe(3);
    expect(bucket('0.25')).toBe(4);
    expect(bucket('10')).toBe(4);
    expect(bucket('+Inf')).toBe(5);
    expect(sample(text, 'http_server_request_duration_seconds_count', labels)).toBe(5);
    expect(sample(text, 'http_server_request_duration_seconds_sum', labels)).toBeCloseTo(30.2044, 6);
    expect(sample(text, 'http_server_requests_total', labels)).toBe(5);
  });

  it('keeps each series apart, by route, method and status', async () => {
    recordRequest('/test/apart', 'GET', 200, 0.01);
    recordRequest('/test/apart', 'GET', 404, 0.01);
    recordRequest('/test/apart', 'POST', 200, 0.01);
    recordRequest('/test/apart', 'POST', 200, 0.01);
    const text = await prometheusText();
    const count = (method: string, status: string) =>
      sample(text, 'http_server_request_duration_seconds_count', { route: '/test/apart', method, status });
    expect([count('GET', '200'), count('GET', '404'), count('POST', '200')]).toEqual([1, 1, 2]);
  });
});
