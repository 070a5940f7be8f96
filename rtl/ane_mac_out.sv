// ane_mac_out: the output port of a MAC slot (NUMERICS N-2.6, N-2.3, N-2.7). Combinational.
//   r = RNE_fp16(acc) with the plain fp16 range (overflow to inf when |acc| >= 65520);
//   m1: |r| < 2^-14 (an fp16 denormal) leaves as +0; every zero result is +0;
//   an fp32 NaN (only a loaded value can hold one) acts as +inf (N-1.1).
// The 32768 ceiling is applied in the accumulator (ane_mac_acc_add), not here.
`default_nettype none

module ane_mac_out #(
  // N-0.2 generation: ane_pkg::GenM1 (0) or ane_pkg::GenM5 (1).
  parameter logic Gen = ane_pkg::GenM1
) (
  input  wire logic [31:0] acc_i,
  output      logic [15:0] fp16_o
);

  logic [7:0]  e8;
  logic [23:0] sig;
  logic signed [9:0] e;      // unbiased exponent of the fp32 value
  logic [5:0]  pos;          // bit of sig holding one fp16 quantum
  logic [25:0] wide, low_mask, low_bits, half, rounded;
  logic        round_up;
  logic [11:0] sig16;
  logic signed [9:0] e16;    // fp16 biased exponent field before the carry check
  logic [15:0] r;

  always_comb begin
    e8  = acc_i[30:23];
    sig = {(e8 != 8'h00), acc_i[22:0]};
    e   = ((e8 == 8'h00) ? 10'sd1 : $signed({2'b00, e8})) - 10'sd127;
    // fp16 quantum exponent: max(e, -14) - 10; sig's lsb exponent is e - 23 (fp32 normal).
    if (e >= -10'sd14) begin
      pos = 6'd13;
    end else if (e >= -10'sd39) begin
      pos = 6'(-e - 10'sd1);  // (-24) - (e - 23): 14 .. 38
    end else begin
      pos = 6'd39;            // far below half the smallest fp16 denormal
    end
    wide     = {2'b00, sig};
    if (pos > 6'd25) begin
      rounded = '0;
      round_up = 1'b0;
      low_mask = '0;
      low_bits = '0;
      half = '0;
    end else begin
      low_mask = ~({26{1'b1}} << pos);
      low_bits = wide & low_mask;
      half     = 26'd1 << (pos - 6'd1);
      round_up = (low_bits > half) || ((low_bits == half) && wide[pos[4:0]]);
      rounded  = (wide & ~low_mask) + (round_up ? (26'd1 << pos) : 26'd0);
    end
    sig16 = 12'(rounded >> pos);
    e16   = (e >= -10'sd14) ? (e + 10'sd15) : 10'sd0;  // 0 marks the denormal range
    if (e16 != 10'sd0) begin
      if (sig16[11]) begin
        e16 = e16 + 10'sd1;  // carry into the next binade
        sig16 = sig16 >> 1;
      end
    end else if (sig16[10]) begin
      e16 = 10'sd1;  // a denormal that rounded up to 2^-14
    end

    if (e8 == 8'hFF) begin
      r = (acc_i[22:0] != 23'd0) ? 16'h7C00 : {acc_i[31], 15'h7C00};  // NaN -> +inf
    end else if (e16 >= 10'sd31) begin
      r = {acc_i[31], 15'h7C00};
    end else if (e16 == 10'sd0) begin
      r = {acc_i[31], 5'd0, sig16[9:0]};
    end else begin
      r = {acc_i[31], e16[4:0], sig16[9:0]};
    end
    // N-2.7: zero results are +0; N-2.3: m1 flushes fp16 denormal results to +0.
    if (r[14:0] == 15'd0) r = 16'd0;
    if ((Gen == ane_pkg::GenM1) && (r[14:10] == 5'd0)) r = 16'd0;
    fp16_o = r;
  end

endmodule

`default_nettype wire
