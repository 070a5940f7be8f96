// ane_pkg: the format facts every ANE block shares (NUMERICS N-0, N-1).
// fp16 field layout, the generation switch, and the MAC operand modes live here and nowhere else.
`default_nettype none

package ane_pkg;

  // ---- N-0.1 fp16 (IEEE binary16) ----
  localparam int unsigned Fp16Width    = 16;
  localparam int unsigned Fp16ExpBits  = 5;
  localparam int unsigned Fp16ManBits  = 10;
  localparam int unsigned Fp16SigBits  = Fp16ManBits + 1;  // with the hidden bit
  localparam int unsigned Fp16Bias     = 15;
  localparam logic [15:0] Fp16PosInf   = 16'h7C00;
  localparam logic [15:0] Fp16PosZero  = 16'h0000;

  // An fp16 value decoded for arithmetic: value = (-1)^sign * sig * 2^(exp - 25),
  // exp = max(biased exponent, 1) so normals and denormals share one scale.
  typedef struct packed {
    logic        sign;
    logic [4:0]  exp;
    logic [10:0] sig;
    logic        is_zero;
    logic        is_inf;
  } fp16_unpacked_t;

  // ---- N-0.2 generation switch ----
  typedef enum logic {
    GenM1 = 1'b0,  // H13 / A14 class: MAC flushes denormals (N-2.3), add12 quads (N-2.4)
    GenM5 = 1'b1   // keeps denormals in the MAC, exact quads
  } gen_e;

  // ---- N-2.1 MAC operand modes ----
  typedef enum logic [2:0] {
    ModeFp16    = 3'd0,  // fp16 data x fp16 kernel
    ModeInt8    = 3'd1,  // int8 data x int8 kernel, int32 accumulate
    ModeI8xF16  = 3'd2,  // int8 data x fp16 kernel (data converted exactly to fp16)
    ModeF16xI8  = 3'd3,  // fp16 data x int8 kernel (kernel converted exactly to fp16)
    ModeInt4    = 3'd4,  // four packed int4 data values x one int4 kernel value
    ModeCmpMax  = 3'd5,  // acc = max(acc, data), N-2.9
    ModeCmpMin  = 3'd6   // acc = min(acc, data), N-2.9
  } mac_mode_e;

  // MAC lane commands.
  typedef enum logic [1:0] {
    CmdMac   = 2'd0,  // multiply-accumulate (or compare) one product into a slot
    CmdLoad  = 2'd1,  // load a 32-bit partial result {kernel, data} into a slot (N-2.5)
    CmdClear = 2'd2   // clear a slot: acc = +0, no products seen, saturation flag cleared
  } mac_cmd_e;

  // ---- N-2.2 / N-2.4 exact values on the MAC path ----
  // An exact product or quad sum: (-1)^sign * mag * 2^-48, or +-inf. Every fp16 x fp16 product
  // (2^-48 .. < 2^32) and every sum of four of them (< 2^35) fits: 83 magnitude bits.
  // A zero has mag == 0, sign == 0 and inf == 0.
  localparam int unsigned ExactMagBits = 83;
  localparam int          ExactLsbExp  = -48;
  localparam int unsigned MacExactBits = ExactMagBits + 2;  // $bits(mac_exact_t), for Yosys
  typedef struct packed {
    logic        inf;
    logic        sign;
    logic [82:0] mag;
  } mac_exact_t;

  // True when an fp16 code is a NaN (all-ones exponent, nonzero fraction).
  function automatic logic fp16_is_nan(logic [14:0] h);  // sign bit not needed
    fp16_is_nan = (h[14:10] == 5'h1F) && (h[9:0] != 10'h000);
  endfunction

endpackage

`default_nettype wire
