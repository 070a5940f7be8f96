// SPDX-License-Identifier: Apache-2.0
// ane_mac_mul: operand decode and exact products of one MAC lane (NUMERICS N-1, N-2.1 to N-2.3,
// N-2.8, N-2.9). Three stages; Pipe = 1 puts a register after the first (enable ld_i: it is the
// lane's register 0, written as an operation is accepted) and after the second (enable en_i);
// Pipe = 0 makes the block combinational (the stage tests).
//   stage 0  decode both operands (N-1: NaN -> +inf, -0 -> +0; m1: denormal -> +0), convert an
//            int8 operand exactly to fp16 form (mixed modes), add the exponents; raw_i keeps
//            {kernel, data} as they are instead (raw_o: a CmdLoad's value)
//   stage 1  the two partial products of the one 11 x 11 significand multiplier (ane_sig_mul)
//   stage 2  sum the partial products and normalize: prod_o is the exact product in mac_fv_t
//            form (22-bit significand, 0 x inf = +0, inf x nonzero = signed inf)
// Modes:
//   fp16 x fp16, int8 x fp16, fp16 x int8   prod_o
//   compare max/min                          prod_o = data x 1.0 (the data value, after N-1/N-2.3)
//   int8 x int8                              int_prod_o, the exact int16 product
//   int4 packed                              int4_prod_o[8i+7:8i] = data[4i+3:4i] x kernel[3:0];
//   (int_o carries whichever of the two the mode has)
//                                            each half of the multiplier takes two data
//                                            magnitudes 7 bits apart times the kernel magnitude
`default_nettype none

module ane_mac_mul #(
  // N-0.2 generation: ane_pkg::GenM1 (0) or ane_pkg::GenM5 (1).
  parameter logic Gen  = ane_pkg::GenM1,
  // 1: a pipeline register between the partial products and their sum.
  parameter bit   Pipe = 1'b0
) (
  input  wire logic               clk_i,
  input  wire logic               ld_i,
  input  wire logic               en_i,
  input  wire ane_pkg::mac_mode_e mode_i,
  input  wire logic               raw_i,
  input  wire logic [15:0]        data_i,
  input  wire logic [15:0]        kernel_i,
  output      logic [31:0]        raw_o,
  output      ane_pkg::mac_fv_t   prod_o,
  output      logic signed [15:0] int_prod_o,
  output      logic [31:0]        int4_prod_o,
  output      logic [31:0]        int_o        // int4 ? int4_prod_o : int_prod_o sign-extended
);

  // ------------------------------------------------------------------ stage 0
  ane_pkg::fp16_unpacked_t data_fp, kernel_fp;
  ane_fp16_unpack #(.Gen(Gen)) u_unpack_data   (.fp16_i(data_i),   .op_o(data_fp));
  ane_fp16_unpack #(.Gen(Gen)) u_unpack_kernel (.fp16_i(kernel_i), .op_o(kernel_fp));

  // An int8 as an fp16 operand, exactly (N-2.1): the magnitude's leading one at bit 10 of the
  // significand, exponent 15 + its position. Magnitudes: -128 -> 128. (No functions here: the
  // lanes of a 256-lane array then share one body of simulation code.)
  logic [7:0] dmag8, kmag8;
  logic [3:0] dmag4 [4];
  logic [3:0] kmag4;
  logic [2:0] dmsb, kmsb;
  logic [15:0] data_i8, kernel_i8;
  logic [2:0]  dlz, klz;
  logic        unused_dzero, unused_kzero;  // (a zero magnitude: msb 0, as the shift wants)
  assign dmag8 = data_i[7] ? (~data_i[7:0] + 8'd1) : data_i[7:0];
  assign kmag8 = kernel_i[7] ? (~kernel_i[7:0] + 8'd1) : kernel_i[7:0];
  ane_lzc #(.W(8)) u_dlz (.v_i(dmag8), .n_o(dlz), .zero_o(unused_dzero));
  ane_lzc #(.W(8)) u_klz (.v_i(kmag8), .n_o(klz), .zero_o(unused_kzero));
  assign dmsb = ~dlz;  // the index of the top set bit
  assign kmsb = ~klz;
  always_comb begin
    data_i8   = {5'(5'd15 + {2'd0, dmsb}), 11'({3'd0, dmag8} << (4'd10 - {1'b0, dmsb}))};
    kernel_i8 = {5'(5'd15 + {2'd0, kmsb}), 11'({3'd0, kmag8} << (4'd10 - {1'b0, kmsb}))};
    for (int q = 0; q < 4; q++) begin
      dmag4[q] = data_i[4*q+3] ? (~data_i[4*q +: 4] + 4'd1) : data_i[4*q +: 4];
    end
    kmag4 = kernel_i[3] ? (~kernel_i[3:0] + 4'd1) : kernel_i[3:0];
  end

  logic        is_int8, is_int4, is_cmp, data_int, kernel_int;
  logic        a_sign, b_sign, a_zero, b_zero, a_inf, b_inf;
  logic [4:0]  a_exp, b_exp;
  logic [10:0] a_sig, b_sig, a_hi;
  logic [3:0]  k4;

  always_comb begin
    is_int8    = (mode_i == ane_pkg::ModeInt8);
    is_int4    = (mode_i == ane_pkg::ModeInt4);
    is_cmp     = (mode_i == ane_pkg::ModeCmpMax) || (mode_i == ane_pkg::ModeCmpMin);
    data_int   = (mode_i == ane_pkg::ModeI8xF16);
    kernel_int = (mode_i == ane_pkg::ModeF16xI8);
    k4         = kmag4;

    // data operand
    a_sign = data_fp.sign;
    a_zero = data_fp.is_zero;
    a_inf  = data_fp.is_inf;
    a_exp  = data_fp.exp;
    a_sig  = data_fp.sig;
    if (data_int || is_int8) begin
      a_sign = data_i[7];
      a_zero = (data_i[7:0] == 8'd0);
      a_inf  = 1'b0;
      a_exp  = data_i8[15:11];
      a_sig  = is_int8 ? {3'd0, dmag8} : data_i8[10:0];
    end
    if (is_int4) begin  // |d1| at [10:7], |d0| at [3:0]: the two products cannot overlap (<= 64)
      a_sig = {dmag4[1], 3'd0, dmag4[0]};
    end
    a_hi = is_int4 ? {dmag4[3], 3'd0, dmag4[2]} : a_sig;

    // kernel operand (1.0 in compare mode: the product is the data value)
    b_sign = kernel_fp.sign;
    b_zero = kernel_fp.is_zero;
    b_inf  = kernel_fp.is_inf;
    b_exp  = kernel_fp.exp;
    b_sig  = kernel_fp.sig;
    if (kernel_int || is_int8) begin
      b_sign = kernel_i[7];
      b_zero = (kernel_i[7:0] == 8'd0);
      b_inf  = 1'b0;
      b_exp  = kernel_i8[15:11];
      b_sig  = is_int8 ? {3'd0, kmag8} : kernel_i8[10:0];
    end
    if (is_cmp) begin
      b_sign = 1'b0;
      b_zero = 1'b0;
      b_inf  = 1'b0;
      b_exp  = 5'd15;
      b_sig  = 11'd1024;
    end
    if (is_int4) b_sig = {7'd0, k4};
  end

  ane_pkg::mac_dec_t dec_d, dec_q;
  always_comb begin
    dec_d.a_sig = a_sig;
    dec_d.a_hi  = a_hi;
    dec_d.b_sig = b_sig;
    dec_d.esum  = {1'b0, a_exp} + {1'b0, b_exp};
    dec_d.zero  = a_zero || b_zero;
    dec_d.inf   = !(a_zero || b_zero) && (a_inf || b_inf);
    dec_d.sign  = a_sign ^ b_sign;
    dec_d.s4    = {data_i[15] ^ kernel_i[3], data_i[11] ^ kernel_i[3], data_i[7] ^ kernel_i[3],
                   data_i[3] ^ kernel_i[3]};
    dec_d.int4  = is_int4;
    if (raw_i) begin  // {kernel, data} as they are: bits 31..21, 20..10, 9..0
      dec_d.a_sig       = kernel_i[15:5];
      dec_d.a_hi        = {kernel_i[4:0], data_i[15:10]};
      dec_d.b_sig[10:1] = data_i[9:0];
    end
  end

  // ------------------------------------------------------------------ stage 1
  logic [16:0] lo;
  logic [15:0] hi;
  logic [4:0]  b_hi_q;
  assign b_hi_q = dec_q.int4 ? {1'b0, dec_q.b_sig[3:0]} : dec_q.b_sig[10:6];
  ane_sig_mul u_sig_mul (.a_lo_i(dec_q.a_sig), .b_lo_i(dec_q.b_sig[5:0]), .a_hi_i(dec_q.a_hi),
                         .b_hi_i(b_hi_q), .lo_o(lo), .hi_o(hi));
  assign raw_o = {dec_q.a_sig, dec_q.a_hi, dec_q.b_sig[10:1]};

  ane_pkg::mac_pp_t pp_d, pp_q;
  always_comb begin
    pp_d.lo   = lo;
    pp_d.hi   = hi;
    pp_d.esum = dec_q.esum;
    pp_d.zero = dec_q.zero;
    pp_d.inf  = dec_q.inf;
    pp_d.sign = dec_q.sign;
    pp_d.s4   = dec_q.s4;
    pp_d.int4 = dec_q.int4;
  end

  // The pipeline registers (ane_pipe_reg: Pipe = 1, registers with no reset; Pipe = 0, wires):
  // the decoded operands load with ld_i, the partial products advance with en_i.
  ane_pipe_reg #(.W($bits(dec_q)), .Pipe(Pipe)) u_dec (.clk_i, .en_i(ld_i), .d_i(dec_d), .q_o(dec_q));
  ane_pipe_reg #(.W($bits(pp_q)), .Pipe(Pipe)) u_pp (.clk_i, .en_i, .d_i(pp_d), .q_o(pp_q));

  // ------------------------------------------------------------------ stage 2
  logic [21:0] sig22, sig_n;
  logic [6:0]  e_n;
  logic [4:0]  lz;
  logic [27:0] m4;

  assign sig22 = 22'(pp_q.lo) + {pp_q.hi, 6'd0};
  if (Gen == ane_pkg::GenM1) begin : g_m1
    assign lz = {4'd0, !sig22[21]};  // normal x normal: sig22 >= 2^20
  end else begin : g_m5
    // denormal operands: up to 21 leading zeros
    logic unused_zero;  // (a zero sig22: 31, as before)
    ane_lzc #(.W(32)) u_lz (.v_i({sig22, 10'd0}), .n_o(lz), .zero_o(unused_zero));
  end

  always_comb begin
    // value = sig22 * 2^(esum - 50); with the msb at bit 21 the exponent is esum - 29.
    sig_n = sig22 << lz;
    e_n   = {1'b0, pp_q.esum} + 7'd35 - {2'd0, lz};

    prod_o = '0;
    if (pp_q.zero) begin
      prod_o.zero = 1'b1;
    end else if (pp_q.inf) begin
      prod_o.inf  = 1'b1;
      prod_o.sign = pp_q.sign;
    end else begin
      prod_o.sign = pp_q.sign;
      prod_o.e    = e_n;
      prod_o.sig  = sig_n;
    end

    int_prod_o = pp_q.sign ? -$signed({1'b0, sig22[14:0]}) : $signed({1'b0, sig22[14:0]});
    m4 = {pp_q.hi[13:7], pp_q.hi[6:0], pp_q.lo[13:7], pp_q.lo[6:0]};  // int4 magnitudes
    for (int i = 0; i < 4; i++) begin
      int4_prod_o[8*i +: 8] = pp_q.s4[i] ? -{1'b0, m4[7*i +: 7]} : {1'b0, m4[7*i +: 7]};
    end
    int_o = pp_q.int4 ? int4_prod_o : 32'($signed(int_prod_o));
  end

  logic unused_pp;
  assign unused_pp = ^{pp_q.lo[16:14], pp_q.hi[15:14]};

endmodule

`default_nettype wire
