// SPDX-License-Identifier: Apache-2.0
// ane_mac_norm: normalization for the MAC datapath: x_o = v_i shifted left by its leading zeros,
// n_o = that count (log2(Width) levels of zero detect and shift; Width a power of two).
// A zero v_i gives n_o = Width - 1 and x_o = 0: callers test zero apart. Combinational.
`default_nettype none

module ane_mac_norm #(
  parameter int unsigned Width = 32
) (
  input  wire logic [Width-1:0]         v_i,
  output      logic [Width-1:0]         x_o,
  output      logic [$clog2(Width)-1:0] n_o
);

  localparam int unsigned Levels = $clog2(Width);

  always_comb begin
    x_o = v_i;
    n_o = '0;
    for (int k = Levels - 1; k >= 0; k--) begin
      // the top 2^k bits are zero: shift them out
      if ((x_o & ~({Width{1'b1}} >> (1 << k))) == '0) begin
        n_o[k] = 1'b1;
        x_o    = x_o << (1 << k);
      end
    end
  end

`ifndef SYNTHESIS
  initial assert(Width >= 2 && (1 << Levels) == Width);
`endif

endmodule

`default_nettype wire
