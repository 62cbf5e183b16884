// The microphone's AudioWorklet (web/src/lib/audio/recorder.ts): copies the first input channel
// out in chunks of `processorOptions.chunkSamples`. A served file rather than a Blob URL, so the
// Content-Security-Policy's script-src needs no blob:.
/* global AudioWorkletProcessor, registerProcessor */
class NexusCapture extends AudioWorkletProcessor {
  constructor(options) {
    super();
    this.buffer = new Float32Array(options.processorOptions.chunkSamples);
    this.filled = 0;
  }
  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (!channel) return true;
    let offset = 0;
    while (offset < channel.length) {
      const count = Math.min(channel.length - offset, this.buffer.length - this.filled);
      this.buffer.set(channel.subarray(offset, offset + count), this.filled);
      this.filled += count;
      offset += count;
      if (this.filled === this.buffer.length) {
        this.port.postMessage(this.buffer.slice());
        this.filled = 0;
      }
    }
    return true;
  }
}
registerProcessor('nexus-capture', NexusCapture);
