"""The weights and the wiring of an ONNX model file, read without onnx or onnxruntime.

Why by hand: onnxruntime adds 78 MB beside numpy's 73, which alone would break the 150 MB a default embedder
may add; and tgneo does not *run* the ONNX graph — :mod:`.minilm` runs the BERT encoder in numpy — it only
needs the graph's initializers (the weights) and enough of its nodes to know which weight feeds which layer.
An ONNX file is one protobuf ``ModelProto``; this module decodes the few fields of it that hold those (the
protobuf wire format is four field types, a varint and a tag each), and nothing else.

Quantized weights come back as float32: ``(q - zero_point) * scale``, per tensor or per output column, the
exact ``DequantizeLinear`` / ``MatMulInteger`` arithmetic of the ONNX operators.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tgneo.errors import ConfigError

__all__ = ["Graph", "Node", "dequantized", "dequantized_matmul_weights", "read_graph"]

# ModelProto.graph; GraphProto.node / .initializer; NodeProto.input / .output / .op_type;
# TensorProto.dims / .data_type / .float_data / .int32_data / .int64_data / .name / .raw_data
_MODEL_GRAPH = 7
_GRAPH_NODE, _GRAPH_INITIALIZER = 1, 5
_NODE_INPUT, _NODE_OUTPUT, _NODE_OP_TYPE = 1, 2, 4
_T_DIMS, _T_TYPE, _T_FLOAT, _T_INT32, _T_INT64, _T_NAME, _T_RAW = 1, 2, 4, 5, 7, 8, 9
_DTYPES = {1: "<f4", 2: "u1", 3: "i1", 6: "<i4", 7: "<i8"}
"""TensorProto.DataType → numpy dtype, for the types a quantized BERT's initializers use."""


@dataclass(frozen=True)
class Node:
    """One operator of the graph: its type and the names of the values it reads and writes."""

    op_type: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]


@dataclass
class Graph:
    """A model's initializers (numpy arrays by name) and its nodes, in file order."""

    initializers: dict[str, Any] = field(default_factory=dict)
    nodes: list[Node] = field(default_factory=list)

    def consumers(self) -> dict[str, list[Node]]:
        """The nodes reading each value, by the value's name."""
        found: dict[str, list[Node]] = {}
        for node in self.nodes:
            for name in node.inputs:
                found.setdefault(name, []).append(node)
        return found


def _varint(data: memoryview, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7


def _fields(data: memoryview) -> Iterator[tuple[int, int, Any]]:
    """(field number, wire type, value) of one message: an int for varints, bytes for the rest."""
    pos, end = 0, len(data)
    while pos < end:
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        value: Any
        if wire == 0:
            value, pos = _varint(data, pos)
        elif wire == 1:
            value, pos = data[pos : pos + 8], pos + 8
        elif wire == 2:
            size, pos = _varint(data, pos)
            value, pos = data[pos : pos + size], pos + size
        elif wire == 5:
            value, pos = data[pos : pos + 4], pos + 4
        else:
            raise ConfigError(f"not an ONNX model: protobuf wire type {wire} at byte {pos}")
        yield number, wire, value


def _varints(wire: int, value: Any) -> list[int]:
    if wire == 0:
        return [value]
    out, pos = [], 0
    while pos < len(value):
        item, pos = _varint(value, pos)
        out.append(item)
    return out


def _tensor(data: memoryview) -> tuple[str, Any]:
    import numpy as np

    name, dims, dtype, raw = "", [], 0, b""
    floats: list[float] = []
    ints: list[int] = []
    for number, wire, value in _fields(data):
        if number == _T_DIMS:
            dims += _varints(wire, value)
        elif number == _T_TYPE:
            dtype = value
        elif number == _T_NAME:
            name = bytes(value).decode("utf-8")
        elif number == _T_RAW:
            raw = bytes(value)
        elif number == _T_FLOAT:
            floats += struct.unpack(f"<{len(value) // 4}f", value)
        elif number in (_T_INT32, _T_INT64):
            ints += _varints(wire, value)
    if dtype not in _DTYPES:
        raise ConfigError(f"ONNX initializer {name!r}: data type {dtype} is not one tgneo reads")
    if raw:
        array = np.frombuffer(raw, dtype=_DTYPES[dtype])
    elif floats:
        array = np.array(floats, dtype=np.float32)
    else:  # small integer tensors (zero points) are stored as varints, sign-extended from 64 bits
        array = np.array([i - (1 << 64) if i >= 1 << 63 else i for i in ints]).astype(_DTYPES[dtype])
    return name, array.reshape(dims)


def _node(data: memoryview) -> Node:
    inputs: list[str] = []
    outputs: list[str] = []
    op_type = ""
    for number, _, value in _fields(data):
        if number == _NODE_INPUT:
            inputs.append(bytes(value).decode("utf-8"))
        elif number == _NODE_OUTPUT:
            outputs.append(bytes(value).decode("utf-8"))
        elif number == _NODE_OP_TYPE:
            op_type = bytes(value).decode("utf-8")
    return Node(op_type, tuple(inputs), tuple(outputs))


def read_graph(model: bytes) -> Graph:
    """The initializers and nodes of the ONNX ``ModelProto`` serialized in ``model``.

    Raises:
        ConfigError: the bytes are not an ONNX model, or an initializer has a type tgneo does not read.
    """
    graph = Graph()
    try:
        for number, wire, value in _fields(memoryview(model)):
            if number != _MODEL_GRAPH or wire != 2:
                continue
            for inner, inner_wire, item in _fields(value):
                if inner == _GRAPH_INITIALIZER and inner_wire == 2:
                    name, array = _tensor(item)
                    graph.initializers[name] = array
                elif inner == _GRAPH_NODE and inner_wire == 2:
                    graph.nodes.append(_node(item))
    except (IndexError, UnicodeDecodeError, ValueError) as e:
        raise ConfigError(f"not an ONNX model: {e}") from e
    if not graph.initializers:
        raise ConfigError("not an ONNX model: it holds no graph initializers")
    return graph


def dequantized(graph: Graph, name: str) -> Any:
    """The float32 value of the tensor ``name`` that the graph stores quantized (``name_quantized``, with its
    ``_scale`` and ``_zero_point``): ``(q − zero_point) · scale``, as ``DequantizeLinear`` computes it.

    Raises:
        ConfigError: the graph holds no such tensor.
    """
    import numpy as np

    try:
        q, scale, zero_point = (graph.initializers[f"{name}_{part}"] for part in ("quantized", "scale", "zero_point"))
    except KeyError as e:
        raise ConfigError(f"the ONNX model holds no quantized {name!r} ({e} is missing)") from e
    return (q.astype(np.float32) - zero_point.astype(np.float32)) * scale.astype(np.float32)


def dequantized_matmul_weights(graph: Graph) -> dict[str, Any]:
    """Every ``MatMulInteger`` weight as float32 ``[in, out]``, named by the bias it is added to.

    A dynamically quantized linear layer is ``MatMulInteger(x_q, W_q, x_zp, W_zp) → Cast → Mul(scales) →
    Add(bias)``; following that chain to its ``Add`` gives the layer's own name (``….query.bias`` →
    ``….query.weight``), so no layer is found by its position in the file. ``W = (W_q − W_zp) · W_scale``,
    per output column.

    Raises:
        ConfigError: a quantized weight's chain does not end in a named bias.
    """
    import numpy as np

    consumers = graph.consumers()
    weights: dict[str, Any] = {}
    for node in graph.nodes:
        if node.op_type != "MatMulInteger":
            continue
        quantized, zero_point = node.inputs[1], node.inputs[3]
        scale = quantized.removesuffix("_quantized") + "_scale"
        value, bias = node.outputs[0], None
        for _ in range(3):  # Cast, Mul, Add
            following = consumers.get(value, [])
            if not following:
                break
            step = following[0]
            if step.op_type == "Add":
                bias = next((i for i in step.inputs if i.endswith(".bias") and i in graph.initializers), None)
                break
            value = step.outputs[0]
        if bias is None:
            raise ConfigError(f"ONNX weight {quantized!r}: its MatMulInteger is not followed by a named bias")
        q = graph.initializers[quantized].astype(np.float32)
        zp = graph.initializers[zero_point].astype(np.float32)
        weights[bias.removesuffix("bias") + "weight"] = (q - zp) * graph.initializers[scale].astype(np.float32)
    return weights
