// Self-test fixture (scripts/synth/selftest.sh), not part of the design.
// A clocked top shaped like the blocks to come: clk_i, async active-low rst_ni, valid/ready,
// an enum parameter (set through a tops-list override), struct ports, a port wider than 64 bits
// a register without reset, and a register whose reset value is not 0 on a clock that is gated
// off throughout the reset (its enable needs valid_q): its reset must act without a clock edge,
// as an asynchronous reset does in silicon and in the RTL. (No packed array of structs: Yosys 0.23 truncates those, see
// fx_pkdarr.sv.)
`default_nettype none

module fx_acc #(
  parameter fx_pkg::mode_e Mode = fx_pkg::ModeAdd
) (
  input  wire logic           clk_i,
  input  wire logic           rst_ni,
  input  wire logic           valid_i,
  output      logic           ready_o,
  input  fx_pkg::item_t      item_a_i,
  input  fx_pkg::item_t      item_b_i,
  input  wire logic [69:0]    wide_i,
  output      logic           valid_o,
  input  wire logic           ready_i,
  output      logic [69:0]    acc_o,
  output fx_pkg::item_t       last_o,
  output      logic [7:0]     count_o
);

  logic [69:0]   acc_q;
  logic          valid_q;
  fx_pkg::item_t last_q;
  logic          fire;

  assign ready_o = !valid_q || ready_i;
  assign fire    = valid_i && ready_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q   <= '0;
      valid_q <= 1'b0;
    end else begin
      if (fire) begin
        if (Mode == fx_pkg::ModeXor) acc_q <= (acc_q ^ wide_i) + {46'd0, item_a_i, item_b_i};
        else                         acc_q <= acc_q + wide_i + {46'd0, item_a_i, item_b_i};
      end
      if (fire)         valid_q <= 1'b1;
      else if (ready_i) valid_q <= 1'b0;
    end
  end

  // counts accepted outputs from A5; enabled only while an output is valid
  logic [7:0] count_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)                count_q <= 8'hA5;
    else if (valid_q && ready_i) count_q <= count_q + 8'd1;
  end
  assign count_o = count_q;

  // datapath register, no reset
  always_ff @(posedge clk_i) begin
    if (fire) last_q <= item_a_i ^ item_b_i;
  end

  assign valid_o = valid_q;
  assign acc_o   = acc_q;
  assign last_o  = last_q;

endmodule

`default_nettype wire
