import type { Config } from '../config.js';

/**
 * Starts trace export when OTEL_EXPORTER_OTLP_ENDPOINT is set; returns its stop (flushing what is
 * buffered) to close with the process. The SDK is imported here, only then.
 */
export async function traceIfConfigured(config: Config, role: 'api' | 'worker'): Promise<(() => Promise<void>)[]> {
  if (!config.otlpEndpoint) return [];
  const { startTracing } = await import('./tracing.js');
  const serviceName = config.otelServiceName ?? `loyalty-${role}`;
  return [startTracing({ endpoint: config.otlpEndpoint, serviceName, samplerNamed: config.otelSamplerNamed }).stop];
}
