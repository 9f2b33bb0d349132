"""The buffers concern: ``SqliteBuffers``, the ``BufferStore`` port (reflections and blobs)."""
