// ane_pp_round: the first post-processor stage of one lane (NUMERICS N-2.6, N-3.3, N-3.4).
// Combinational. From a slot's accumulator value:
//   fp accumulator, sr_i = 0:  r = RNE16(acc), m1 flush (ane_mac_out, the N-2.6 output port)
//   fp accumulator, sr_i = 1:  stochastic rounding with the lane's draw (N-3.4): the fp16
//                              significand plus `width` bits below its LSB, plus rand, truncated;
//                              > 65504 is inf; m1 flushes a denormal result; zero is +0
//   int32 accumulator, int8 store:  q = clamp(RNE(acc / 2^shift), -128, 127), sign-extended
//   int32 accumulator, fp16 store:  RNE16(acc / 2^shift), gradual underflow, inf at 65520;
//                                   zero is +0
`default_nettype none

module ane_pp_round #(
  parameter logic Gen = ane_pkg::GenM1
) (
  input  wire logic [31:0] acc_i,
  input  wire logic        int_acc_i,
  input  wire logic [4:0]  shift_i,
  input  wire logic        store_int8_i,
  input  wire logic        sr_i,
  input  wire logic [3:0]  sr_width_i,  // 1 .. 13
  input  wire logic [12:0] rand_i,      // the lane's draw (low sr_width bits used)
  output      logic [15:0] r_o
);

  // ---- RNE output port (N-2.6) ----
  logic [15:0] rne;
  ane_mac_out #(.Gen(Gen)) u_port (.acc_i(acc_i), .fp16_o(rne));

  // ---- stochastic rounding (N-3.4) ----
  logic [7:0]        e8;
  logic [23:0]       sig24;
  logic signed [9:0] e, ue;
  logic [7:0]        shift_fp;   // sig24 LSB to fp16 LSB: 13 .. 125
  logic [7:0]        qshift;     // shift_fp - width
  logic [23:0]       q;
  logic [24:0]       sum;
  logic [12:0]       rmask;
  logic [11:0]       t;          // whole fp16 ulps, <= 2048
  logic [14:0]       code;
  logic [15:0]       sr_r;

  always_comb begin
    e8    = acc_i[30:23];
    sig24 = {(e8 != 8'h00), acc_i[22:0]};
    e     = ((e8 == 8'h00) ? 10'sd1 : $signed({2'b00, e8})) - 10'sd127;
    ue    = (e < -10'sd14) ? -10'sd14 : e;
    shift_fp = 8'(10'sd13 + ue - e);
    qshift   = shift_fp - {4'd0, sr_width_i};
    q        = (qshift >= 8'd24) ? 24'd0 : (sig24 >> qshift);
    rmask    = 13'((14'd1 << sr_width_i) - 14'd1);
    sum      = {1'b0, q} + {12'd0, rand_i & rmask};
    t        = 12'(sum >> sr_width_i);
    if (e >= -10'sd14) code = {5'(e + 10'sd14), 10'd0} + {3'd0, t};
    else               code = {3'd0, t};

    if (e8 == 8'hFF && acc_i[22:0] != 23'd0) begin
      sr_r = 16'h7C00;                                   // NaN acts as +inf (N-1.1)
    end else if (e8 == 8'hFF || e > 10'sd15 || code[14:10] == 5'h1F) begin
      sr_r = {acc_i[31], 15'h7C00};
    end else if (t == 12'd0 || (Gen == ane_pkg::GenM1 && code[14:10] == 5'd0)) begin
      sr_r = 16'h0000;                                   // zero, or the m1 flush (N-2.3)
    end else begin
      sr_r = {acc_i[31], code[14:0]};
    end
  end

  // ---- integer accumulators (N-3.3) ----
  logic signed [31:0] acc_s;
  logic signed [32:0] floor_q, q_int;
  logic [31:0]        rem, half, low_mask;
  logic               up;
  logic [15:0]        int8_r;
  logic [31:0]        mag;
  logic [4:0]         msb;
  logic signed [6:0]  ie;         // unbiased exponent of the value
  logic               inormal;
  logic [5:0]         rsh, lsh;
  logic [14:0]        m_sh;
  logic               ir_bit, isticky, iinc;
  logic [14:0]        icode;
  logic [15:0]        int16_r;

  always_comb begin
    acc_s    = $signed(acc_i);
    floor_q  = $signed({acc_s[31], acc_s}) >>> shift_i;
    low_mask = (32'd1 << shift_i) - 32'd1;
    rem      = acc_i & low_mask;
    half     = (shift_i == 5'd0) ? 32'd0 : (32'd1 << (shift_i - 5'd1));
    up       = (shift_i != 5'd0) && ((rem > half) || (rem == half && floor_q[0]));
    q_int    = floor_q + {32'd0, up};
    if (q_int > 33'sd127)       int8_r = 16'h007F;
    else if (q_int < -33'sd128) int8_r = 16'hFF80;
    else                        int8_r = {{8{q_int[7]}}, q_int[7:0]};

    // int32 / 2^shift to fp16.
    mag = acc_s[31] ? 32'(-acc_s) : acc_i;
    msb = 5'd0;
    for (int b = 0; b < 32; b++) begin
      if (mag[b]) msb = 5'(b);
    end
    ie      = $signed({2'b00, msb}) - $signed({2'b00, shift_i});
    inormal = (ie >= -7'sd14);
    // Right shift (rounded) or left shift (exact) that puts the fp16 LSB at bit 0:
    // normal results keep 11 bits from msb down; denormal results have quantum 2^-24.
    rsh = 6'd0;
    lsh = 6'd0;
    if (inormal) begin
      if (msb >= 5'd10) rsh = 6'(msb - 5'd10);
      else              lsh = 6'(5'd10 - msb);
    end else begin
      if (shift_i > 5'd24) rsh = 6'(shift_i - 5'd24);
      else                 lsh = 6'(5'd24 - shift_i);
    end
    m_sh    = 15'((mag >> rsh) << lsh);
    ir_bit  = (rsh != 6'd0) && mag[5'(rsh - 6'd1)];
    isticky = (rsh > 6'd1) && ((mag & ((32'd1 << (rsh - 6'd1)) - 32'd1)) != 32'd0);
    iinc    = ir_bit & (isticky | m_sh[0]);
    if (inormal) icode = {5'(ie + 7'sd14), 10'd0} + m_sh + {14'd0, iinc};
    else         icode = m_sh + {14'd0, iinc};
    // A zero is +0, also where a negative value rounds to it (|acc / 2^shift| <= 2^-25, below
    // the normals: there icode is the whole result and cannot wrap as on an overflow).
    if (mag == 32'd0)                            int16_r = 16'h0000;
    else if (ie > 7'sd15 || icode[14:10] == 5'h1F) int16_r = {acc_i[31], 15'h7C00};
    else int16_r = {acc_i[31] && (inormal || icode != 15'd0), icode[14:0]};
  end

  always_comb begin
    if (int_acc_i) r_o = store_int8_i ? int8_r : int16_r;
    else           r_o = sr_i ? sr_r : rne;
  end

endmodule
